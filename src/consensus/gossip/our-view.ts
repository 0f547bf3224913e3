// What the gossip reads off our consensus state: which votes we hold (as bits), the vote to send
// for a validator, the parts we hold of a part set. Cheap: O(validators) or O(parts), no copies of
// the state.

import type { PartSetState } from "../../types/part-set.js";
import type { BlockID, PartSetHeader, Vote } from "../../wire/generated/tendermint/types/types.js";
import type { ConsensusState } from "../state.js";
import { sameBytes } from "../vote-keeper/block-key.js";
import type { HeightVotes, RoundVotes } from "../vote-keeper/height-votes.js";
import { type VoteTally, voteForBlock } from "../vote-keeper/vote-tally.js";
import { type Bits, hasBit } from "./bit-array.js";

export function sameHeader(a: PartSetHeader, b: PartSetHeader): boolean {
  if (a.total !== b.total || a.hash.length !== b.hash.length) return false;
  for (let i = 0; i < a.hash.length; i++) if (a.hash[i] !== b.hash[i]) return false;
  return true;
}

export function roundVotes(votes: HeightVotes | undefined, round: number): RoundVotes | undefined {
  return votes !== undefined && round >= 0 && round < votes.rounds.length ? votes.rounds[round] : undefined;
}

export function validatorCount(state: ConsensusState): number {
  return state.votes.weights.addresses.length;
}

/** The validator's vote to pass on: its version for the +2/3 block when there is one. */
export function voteToSend(tally: VoteTally, index: number): Vote | undefined {
  const major = tally.majority;
  if (major !== undefined) {
    const forMajor = voteForBlock(tally, index, major.blockId);
    if (forMajor !== undefined) return forMajor;
  }
  return tally.votes[index];
}

/** A vote we hold that the peer (per `peerBits`) lacks; lowest index first. */
export function pickVote(tally: VoteTally | undefined, peerBits: Bits | undefined): Vote | undefined {
  if (tally === undefined || peerBits === undefined) return undefined;
  const votes = tally.votes;
  for (let i = 0; i < votes.length; i++) {
    if (votes[i] !== undefined && !hasBit(peerBits, i)) return voteToSend(tally, i);
  }
  return undefined;
}

/** Bits of the validators whose vote (either version) is for `blockId`. */
export function bitsForBlock(tally: VoteTally | undefined, blockId: BlockID, size: number): Uint8Array {
  const bits = new Uint8Array(size);
  if (tally === undefined) return bits;
  for (let i = 0; i < Math.min(size, tally.votes.length); i++)
    if (voteForBlock(tally, i, blockId) !== undefined) bits[i] = 1;
  return bits;
}

/** Bits of the validators we hold any vote of. */
export function heldBits(tally: VoteTally | undefined, size: number): Uint8Array {
  const bits = new Uint8Array(size);
  if (tally === undefined) return bits;
  for (let i = 0; i < Math.min(size, tally.votes.length); i++) if (tally.votes[i] !== undefined) bits[i] = 1;
  return bits;
}

/**
 * The part sets we keep at this height, the only ones the data routine sends parts from: a fifth
 * added here reaches partsFor, the routine's wake rule and its idle memo at once. Read through
 * accessors, so the hot comparisons allocate nothing.
 */
const HELD_PART_SETS: readonly ((state: ConsensusState) => PartSetState | undefined)[] = [
  (state) => state.proposalParts,
  (state) => state.proposalBlock?.parts,
  (state) => state.validBlock?.parts,
  (state) => state.lockedBlock?.parts,
];

/** Whether two of our states hold the very same part sets (by identity). */
export function samePartSetsHeld(a: ConsensusState, b: ConsensusState): boolean {
  for (const held of HELD_PART_SETS) if (held(a) !== held(b)) return false;
  return true;
}

/** The parts we hold of the part set `header` names, from any block we keep at this height. */
export function partsFor(state: ConsensusState, header: PartSetHeader): PartSetState | undefined {
  for (const heldOf of HELD_PART_SETS) {
    const held = heldOf(state);
    if (held !== undefined && sameHeader(held.header, header)) return held;
  }
  return undefined;
}

/** We propose our round: the parts we hold are our own proposal's (gossip-data.ts's relay rule). */
export function isOwnTurn(our: ConsensusState): boolean {
  const own = our.ownAddress;
  return own !== undefined && our.proposer !== undefined && sameBytes(our.proposer.address, own);
}
