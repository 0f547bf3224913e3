// A routine pass that sent nothing is remembered with what it read, so the next pass on the same
// inputs (most of the data and votes routines' sleep polls in a calm network) is skipped: a pass is
// a function of those inputs, so skipping it gives what running it would (nothing sent, the peer's
// state as it is, due again after peer_gossip_sleep_duration). Only passes that do not read the
// catch-up store are remembered: those depend on the store's answers and the clock too. Whether a
// pass reads the store is answered by the routine's own module (dataReadsStore in gossip-data.ts,
// votesReadStore in gossip-votes.ts), beside the branch that reads it.
//
// What each routine reads (gossip-data.ts, gossip-votes.ts): the data routine our height, round,
// proposal and the part sets we hold, and the peer's height, round, proposal flag and part set; the
// votes routine our height, round, votes and last commit, and the whole peer round state (its bits
// included), which an idle pass may have filled in (empty bit arrays, a catch-up round) and which is
// kept as the pass left it.
import type { ConsensusState } from "../state.js";
import { samePartSetsHeld } from "./our-view.js";
import type { PeerRoundState } from "./peer-round-state.js";

/** An idle pass's inputs: our state and the peer's round state as the pass left it. */
export interface IdlePass {
  readonly our: ConsensusState;
  readonly prs: PeerRoundState;
}

/** Whether the data routine, idle on `last`, is idle again on (`our`, `prs`) without running. */
export function dataIdleAgain(last: IdlePass | undefined, our: ConsensusState, prs: PeerRoundState): boolean {
  if (last === undefined) return false;
  const a = last.our;
  const p = last.prs;
  return (
    (a === our ||
      (a.height === our.height &&
        a.round === our.round &&
        a.proposal === our.proposal &&
        samePartSetsHeld(a, our))) &&
    (p === prs ||
      (p.height === prs.height &&
        p.round === prs.round &&
        p.proposal === prs.proposal &&
        p.proposalHeader === prs.proposalHeader &&
        p.proposalParts === prs.proposalParts))
  );
}

/** Whether the votes routine, idle on `last`, is idle again on (`our`, `prs`) without running. */
export function votesIdleAgain(
  last: IdlePass | undefined,
  our: ConsensusState,
  prs: PeerRoundState,
): boolean {
  if (last === undefined || last.prs !== prs) return false;
  const a = last.our;
  return (
    a === our ||
    (a.height === our.height &&
      a.round === our.round &&
      a.votes === our.votes &&
      a.lastCommit === our.lastCommit &&
      a.lastCommitRound === our.lastCommitRound)
  );
}
