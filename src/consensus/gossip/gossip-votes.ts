// v0.34's gossipVotesRoutine, one pass for one peer. At our height, in v0.34's order: our last
// commit while it starts the height; its POL round's prevotes; its round's prevotes; its round's
// precommits; prevotes and POL prevotes again in any step. A peer one height behind gets our last
// commit, one further behind the stored commit of its height. Each vote sent is marked as held.

import { SignedMsgType, type Vote } from "../../wire/generated/tendermint/types/types.js";
import { RoundStep } from "../round-step.js";
import type { ConsensusState } from "../state.js";
import { precommitOfCommitSig } from "../vote-keeper/commit-from-votes.js";
import { hasBit } from "./bit-array.js";
import { pickVote, roundVotes, validatorCount } from "./our-view.js";
import { nextDue, type Pass } from "./pass.js";
import {
  ensureCatchupCommitRound,
  ensureVoteBits,
  type PeerRoundState,
  setHasVote,
  voteBits,
} from "./peer-round-state.js";

const PREVOTE = SignedMsgType.SIGNED_MSG_TYPE_PREVOTE;
const PRECOMMIT = SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT;

export function gossipVotes(prs: PeerRoundState, pass: Pass): { prs: PeerRoundState; dueMs: number } {
  const max = pass.config.maxSendsPerPass;
  let sent = 0;
  while (sent < max) {
    const picked = pickOne(prs, pass);
    // The bit arrays and catch-up commit round it set up are kept even when nothing is sent: the
    // maj23 query of a lagging peer's commit rests on that round (v0.34 sets it as it picks).
    prs = picked.prs;
    if (picked.vote === undefined) break;
    pass.send({ $case: "vote", vote: { vote: picked.vote } });
    prs = setHasVote(
      prs,
      picked.vote.height,
      picked.vote.round,
      picked.vote.type,
      picked.vote.validatorIndex,
    );
    sent++;
  }
  return { prs, dueMs: nextDue(pass, sent, pass.config.gossipSleepMs) };
}

function fromRound(prs: PeerRoundState, pass: Pass, round: number, type: number): Vote | undefined {
  const votes = roundVotes(pass.our.votes, round);
  const tally = type === PREVOTE ? votes?.prevotes : votes?.precommits;
  return pickVote(tally, voteBits(prs, pass.our.height, round, type));
}

function pickOne(prs: PeerRoundState, pass: Pass): { prs: PeerRoundState; vote: Vote | undefined } {
  const our = pass.our;
  if (prs.height === our.height) {
    prs = ensureVoteBits(prs, our.height, validatorCount(our));
    if (our.lastCommit !== undefined)
      prs = ensureVoteBits(prs, our.height - 1n, our.lastCommit.weights.addresses.length);
    return { prs, vote: pickAtOurHeight(prs, pass) };
  }
  if (prs.height === 0n || prs.height > our.height) return { prs, vote: undefined };
  if (votesFromLastCommit(our, prs)) {
    const size = our.lastCommit.weights.addresses.length;
    prs = ensureCatchupCommitRound(
      ensureVoteBits(prs, prs.height, size),
      prs.height,
      our.lastCommitRound,
      size,
    );
    const tally = roundVotes(our.lastCommit, our.lastCommitRound)?.precommits;
    return { prs, vote: pickVote(tally, voteBits(prs, prs.height, our.lastCommitRound, PRECOMMIT)) };
  }
  // Every other lower height: votesReadStore holds here.
  const stored = pass.stored(prs.height);
  if (stored === undefined) return { prs, vote: undefined };
  const commit = stored.commit;
  const size = commit.signatures.length;
  prs = ensureCatchupCommitRound(ensureVoteBits(prs, prs.height, size), prs.height, commit.round, size);
  const bits = voteBits(prs, prs.height, commit.round, PRECOMMIT);
  if (bits === undefined) return { prs, vote: undefined };
  for (let i = 0; i < size; i++) {
    if (hasBit(bits, i)) continue;
    const vote = precommitOfCommitSig(commit, i);
    if (vote !== undefined) return { prs, vote };
  }
  return { prs, vote: undefined };
}

function pickAtOurHeight(prs: PeerRoundState, pass: Pass): Vote | undefined {
  const our = pass.our;
  if (prs.step === RoundStep.NewHeight && our.lastCommit !== undefined && our.lastCommitRound >= 0) {
    const tally = roundVotes(our.lastCommit, our.lastCommitRound)?.precommits;
    const vote = pickVote(tally, voteBits(prs, our.height - 1n, our.lastCommitRound, PRECOMMIT));
    if (vote !== undefined) return vote;
  }
  const inRound = prs.round !== -1 && prs.round <= our.round;
  if (prs.step <= RoundStep.PrevoteWait && inRound && prs.proposalPolRound !== -1) {
    const vote = fromRound(prs, pass, prs.proposalPolRound, PREVOTE);
    if (vote !== undefined) return vote;
  }
  if (prs.step <= RoundStep.PrevoteWait && inRound) {
    const vote = fromRound(prs, pass, prs.round, PREVOTE);
    if (vote !== undefined) return vote;
  }
  if (prs.step <= RoundStep.PrecommitWait && inRound) {
    const vote = fromRound(prs, pass, prs.round, PRECOMMIT);
    if (vote !== undefined) return vote;
  }
  if (inRound) {
    const vote = fromRound(prs, pass, prs.round, PREVOTE);
    if (vote !== undefined) return vote;
  }
  if (prs.proposalPolRound !== -1) return fromRound(prs, pass, prs.proposalPolRound, PREVOTE);
  return undefined;
}

/** A peer one height behind is sent our LastCommit's precommits, when we hold them. */
function votesFromLastCommit(
  our: ConsensusState,
  prs: PeerRoundState,
): our is ConsensusState & { lastCommit: NonNullable<ConsensusState["lastCommit"]> } {
  return prs.height + 1n === our.height && our.lastCommit !== undefined && our.lastCommitRound >= 0;
}

/**
 * Whether the votes routine reads the store for this peer: on a height below ours, unless it is
 * one behind and our LastCommit serves it (a LastCommit we lack sends it to the store too).
 */
export function votesReadStore(our: ConsensusState, prs: PeerRoundState): boolean {
  return prs.height > 0n && prs.height < our.height && !votesFromLastCommit(our, prs);
}
