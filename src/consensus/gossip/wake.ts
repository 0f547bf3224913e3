// Which of a peer's routines a change can give something to send, derived from what each routine
// reads (gossip-data.ts, gossip-votes.ts): a routine left asleep on a change it cannot use saves a
// pass that would send nothing. The maj23 query runs on its own sleep only (v0.34 polls it too).
//
// The data routine reads our height, round, proposal and the part sets we hold, and the peer's
// height, round, proposal flag and part set. The votes routine reads our height, round, votes and
// last commit (own votes wake it; others', and late precommits added to the last commit, wait for
// its next poll, see the reducer), and the peer's height, round, POL round, step and vote bits.
// A peer's step moving on within one round only narrows what the votes routine picks (NewHeight's
// last commit, then prevotes up to PrevoteWait, precommits up to PrecommitWait), so it wakes neither
// routine; likewise a vote, part or HasVote marked as held only takes away, and a VoteSetBits feeds
// the votes routine only where it clears a bit.
import type { ConsensusState } from "../state.js";
import type { Bits } from "./bit-array.js";
import { sameHeader, samePartSetsHeld } from "./our-view.js";
import type { PeerRoundState } from "./peer-round-state.js";
import { type PeerGossip, peerGossip } from "./state.js";

/** Bit flags: which routines to run now. */
export type Wake = number;
export const WAKE_NONE: Wake = 0;
export const WAKE_DATA: Wake = 1;
export const WAKE_VOTES: Wake = 2;
export const WAKE_BOTH: Wake = WAKE_DATA | WAKE_VOTES;

/** A peer's NewRoundStep: a new height or round feeds both routines; a step alone, neither. */
export function newRoundStepWakes(before: PeerRoundState, after: PeerRoundState): Wake {
  return before.height !== after.height || before.round !== after.round ? WAKE_BOTH : WAKE_NONE;
}

/**
 * A peer's proposal learnt: a part set newly known feeds the data routine (its parts), a POL round
 * newly known the votes routine (its prevotes); the proposal flag alone only takes away.
 */
export function proposalWakes(before: PeerRoundState, after: PeerRoundState): Wake {
  if (before === after) return WAKE_NONE;
  return (
    (before.proposalHeader !== after.proposalHeader ? WAKE_DATA : WAKE_NONE) |
    (before.proposalPolRound !== after.proposalPolRound ? WAKE_VOTES : WAKE_NONE)
  );
}

/**
 * A peer's NewValidBlock: parts to send only for a part set it was not known to collect, or where it
 * lacks a part we believed it held (its bits replace ours); a part set it already announced, with
 * the parts we knew of, only takes away.
 */
export function newValidBlockWakes(before: PeerRoundState, after: PeerRoundState): Wake {
  if (before === after) return WAKE_NONE;
  const a = before.proposalHeader;
  const b = after.proposalHeader;
  if (a === undefined || b === undefined || !sameHeader(a, b)) return WAKE_DATA;
  return cleared(before.proposalParts, after.proposalParts) ? WAKE_DATA : WAKE_NONE;
}

/** Vote bits replaced (VoteSetBits): votes to send only where a bit was cleared. */
export function bitsClearedWakes(before: Bits | undefined, after: Bits | undefined): Wake {
  return cleared(before, after) ? WAKE_VOTES : WAKE_NONE;
}

function cleared(before: Bits | undefined, after: Bits | undefined): boolean {
  if (before === undefined || after === undefined || before === after) return after !== before;
  if (after.length !== before.length) return true;
  for (let i = 0; i < before.length; i++) if (before[i] === 1 && after[i] !== 1) return true;
  return false;
}

/**
 * The routines a transition of ours, `before` → `after`, can feed: a new height or round feeds
 * both; a proposal or a part set we hold changed, the data routine; a vote of our own, the votes
 * routine. A step alone feeds neither (its NewRoundStep goes out as an announcement).
 */
export function ourChangeWakes(before: ConsensusState | undefined, after: ConsensusState): Wake {
  if (before === undefined || !before.started) return WAKE_BOTH;
  if (before.height !== after.height || before.round !== after.round) return WAKE_BOTH;
  let wake = WAKE_NONE;
  if (before.proposal !== after.proposal || !samePartSetsHeld(before, after)) wake |= WAKE_DATA;
  if (ownVoteAdded(before, after)) wake |= WAKE_VOTES;
  return wake;
}

function ownVoteAdded(before: ConsensusState, after: ConsensusState): boolean {
  const own = after.ownIndex;
  if (own < 0 || before.votes === after.votes) return false;
  const a = before.votes.rounds[after.round];
  const b = after.votes.rounds[after.round];
  if (a === b || b === undefined) return false;
  return (
    a?.prevotes.votes[own] !== b.prevotes.votes[own] || a?.precommits.votes[own] !== b.precommits.votes[own]
  );
}

/** The peer with the routines in `which` due now (the same object when they already are). */
export function wakePeer(p: PeerGossip, nowMs: number, which: Wake): PeerGossip {
  const data = which & WAKE_DATA && p.dataDueMs > nowMs ? nowMs : p.dataDueMs;
  const votes = which & WAKE_VOTES && p.votesDueMs > nowMs ? nowMs : p.votesDueMs;
  if (data === p.dataDueMs && votes === p.votesDueMs) return p;
  return peerGossip(p.prs, data, votes, p.maj23DueMs, p.maj23Claims, p.dataIdle, p.votesIdle);
}
