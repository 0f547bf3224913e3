// Tendermint's gossip, minimally: there is no peer layer yet, so each validator periodically
// sends every connected peer what that peer lacks, as v0.34's gossipData/gossipVotes routines
// do from their view of the peer's round state. Here the view is exact (the peer's consensus
// state read at the tick, standing for the NewRoundStep/HasVote messages a real peer sends);
// the messages themselves still go through the lossy network. What is sent:
//   same height: the proposal of the peer's round, the parts of the block it is collecting, the
//     prevotes and precommits it lacks for its round, the round before, its proposal's POL round
//     and our own (later) round (so it can skip ahead, L55);
//   peer behind: the stored seen commit of its height as precommits, then that block's parts.
// A vote for a block with +2/3 (or in the seen commit) also goes to a peer holding its validator's
// other version, standing for v0.34's VoteSetMaj23/VoteSetBits exchange.
// Bounded: at most a few rounds of votes and one block's parts per peer per tick.

import type { ConsensusState } from "../../src/consensus/state.js";
import { sameBlockId } from "../../src/consensus/vote-keeper/block-key.js";
import { precommitOfCommitSig } from "../../src/consensus/vote-keeper/commit-from-votes.js";
import type { HeightVotes, RoundVotes } from "../../src/consensus/vote-keeper/height-votes.js";
import { type VoteTally, voteForBlock } from "../../src/consensus/vote-keeper/vote-tally.js";
import type { PartSetState } from "../../src/types/part-set.js";
import type { PartSetHeader } from "../../src/wire/generated/tendermint/types/types.js";
import type { PeerMessage } from "./sim-network.js";
import { type SimNode, UNSTAMPED } from "./sim-node.js";

const sameHeader = (a: PartSetHeader, b: PartSetHeader) =>
  a.total === b.total && Buffer.from(a.hash).equals(Buffer.from(b.hash));

/** The parts we hold of the part set `header` names, from any block we keep this height. */
function partsFor(state: ConsensusState, header: PartSetHeader): PartSetState | undefined {
  for (const held of [
    state.proposalParts,
    state.proposalBlock?.parts,
    state.lockedBlock?.parts,
    state.validBlock?.parts,
  ]) {
    if (held !== undefined && sameHeader(held.header, header)) return held;
  }
  return undefined;
}

function round(votes: HeightVotes, r: number): RoundVotes | undefined {
  return r >= 0 && r < votes.rounds.length ? votes.rounds[r] : undefined;
}

function missingVotes(
  mine: VoteTally | undefined,
  theirs: VoteTally | undefined,
  from: string,
  send: (m: PeerMessage) => void,
) {
  if (mine === undefined) return;
  const major = mine.majority?.blockId;
  for (let i = 0; i < mine.votes.length; i++) {
    const vote = mine.votes[i];
    if (vote === undefined) continue;
    if (theirs?.votes[i] === undefined) send({ type: "VoteReceived", time: UNSTAMPED, vote, from });
    // v0.34's VoteSetMaj23/VoteSetBits: for a block with +2/3 here, the peer is sent each vote
    // for it that it lacks, even where it holds the validator's other (conflicting) version.
    else if (major !== undefined && theirs !== undefined && voteForBlock(theirs, i, major) === undefined) {
      const forMajor = voteForBlock(mine, i, major);
      if (forMajor !== undefined) send({ type: "VoteReceived", time: UNSTAMPED, vote: forMajor, from });
    }
  }
}

function missingParts(
  mine: PartSetState,
  theirs: PartSetState,
  height: bigint,
  r: number,
  from: string,
  send: (m: PeerMessage) => void,
) {
  for (let i = 0; i < mine.parts.length; i++) {
    const part = mine.parts[i];
    if (part !== undefined && theirs.parts[i] === undefined)
      send({ type: "BlockPartReceived", time: UNSTAMPED, height, round: r, part, from });
  }
}

/** One gossip pass from `me` to `peer`. */
export function gossipTo(me: SimNode, peer: SimNode, send: (m: PeerMessage) => void): void {
  const my = me.state;
  const ps = peer.state;
  if (!my.started || !ps.started) return;
  const from = `v${me.index}`;
  if (ps.height < my.height) {
    catchUp(me, ps, from, send);
    return;
  }
  if (ps.height > my.height) return;

  if (my.proposal !== undefined && ps.proposal === undefined && my.proposal.round === ps.round)
    send({ type: "ProposalReceived", time: UNSTAMPED, proposal: my.proposal, from });
  const wanted = ps.proposalParts;
  if (wanted !== undefined && wanted.count < wanted.header.total) {
    const held = partsFor(my, wanted.header);
    if (held !== undefined) missingParts(held, wanted, ps.height, ps.round, from, send);
  }
  const rounds = new Set([ps.round, ps.round - 1, my.round, ps.proposal?.polRound ?? -1]);
  for (const r of rounds) {
    if (r < 0) continue;
    const mine = round(my.votes, r);
    if (mine === undefined) continue;
    const theirs = round(ps.votes, r);
    missingVotes(mine.prevotes, theirs?.prevotes, from, send);
    missingVotes(mine.precommits, theirs?.precommits, from, send);
  }
}

/** A peer still on a height we committed: its seen commit, then the block's parts. */
function catchUp(me: SimNode, ps: ConsensusState, from: string, send: (m: PeerMessage) => void): void {
  const stored = me.storedBlock(ps.height);
  if (stored === undefined) return;
  const commit = stored.seenCommit;
  const theirs = round(ps.votes, commit.round)?.precommits;
  for (let i = 0; i < commit.signatures.length; i++) {
    const vote = precommitOfCommitSig(commit, i);
    if (vote === undefined) continue;
    // A precommit for the committed block goes unless the peer holds that very version (it may
    // hold the validator's conflicting one: v0.34 sends it through VoteSetMaj23/VoteSetBits).
    const held =
      theirs === undefined
        ? undefined
        : sameBlockId(vote.blockId, commit.blockId)
          ? voteForBlock(theirs, i, commit.blockId)
          : theirs.votes[i];
    if (held === undefined) send({ type: "VoteReceived", time: UNSTAMPED, vote, from });
  }
  const wanted = ps.proposalParts;
  if (wanted === undefined || !sameHeader(wanted.header, stored.blockId.partSetHeader)) return;
  for (const part of stored.parts) {
    if (wanted.parts[part.index] === undefined)
      send({ type: "BlockPartReceived", time: UNSTAMPED, height: ps.height, round: ps.round, part, from });
  }
}
