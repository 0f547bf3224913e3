// Votes: from peers (VoteReceived) and our own once signed (VoteSigned, also broadcast). The vote
// keeper counts them; the upon-rules then read the tallies. Precommits for the previous height
// still complete its commit (for skip_timeout_commit and a fuller LastCommit).

import { blockIdKey } from "../../wire/block-id.js";
import type { Vote } from "../../wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import { RoundStep } from "../round-step.js";
import { addVote, MAX_ROUNDS_AHEAD } from "../vote-keeper/height-votes.js";
import { type Ctx, emit, publish } from "./context.js";
import { lastCommitHasAll } from "./new-height.js";
import { startRound } from "./start-round.js";

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The pair ordered as DuplicateVoteEvidence orders it: voteA has the smaller BlockID key. */
export function orderConflictingVotes(x: Vote, y: Vote): { voteA: Vote; voteB: Vote } {
  return compareBytes(blockIdKey(x.blockId), blockIdKey(y.blockId)) < 0
    ? { voteA: x, voteB: y }
    : { voteA: y, voteB: x };
}

/** `from` is the peer, or undefined for our own signed vote. */
export function onVote(ctx: Ctx, vote: Vote, from: string | undefined): void {
  const s = ctx.s;
  if (vote.height === s.height - 1n && s.lastCommit !== undefined && s.step === RoundStep.NewHeight) {
    onLastCommitVote(ctx, vote, from);
    return;
  }
  if (vote.height === s.height + 1n) {
    bufferNextHeightVote(ctx, vote, from);
    return;
  }
  if (vote.height !== s.height) return;
  // Too far ahead to keep (memory stays bounded), but not wrong: validators that ran ahead vote
  // there and every peer relays their votes, so the peer is not reported.
  if (vote.round > s.round + MAX_ROUNDS_AHEAD) return;
  const outcome = addVote(s.votes, vote, s.round);
  switch (outcome.kind) {
    case "duplicate":
      return;
    case "rejected":
      if (from !== undefined) emit(ctx, { type: "PeerMisbehaved", peer: from, reason: outcome.reason });
      else haltOnOwn(ctx, `our own vote was rejected: ${outcome.reason}`);
      return;
    case "conflict":
      emit(ctx, { type: "ReportConflictingVotes", ...orderConflictingVotes(outcome.existing, outcome.vote) });
      if (from === undefined)
        haltOnOwn(ctx, `we signed two different votes at height ${vote.height} round ${vote.round}`);
      return;
    case "added":
      if (outcome.conflict !== undefined) {
        // A second version: evidence, and counted toward its own value (docs/consensus.md).
        emit(ctx, {
          type: "ReportConflictingVotes",
          ...orderConflictingVotes(outcome.conflict.existing, vote),
        });
        if (from === undefined) {
          haltOnOwn(ctx, `we signed two different votes at height ${vote.height} round ${vote.round}`);
          return;
        }
      }
      ctx.s = { ...s, votes: outcome.votes };
      publish(ctx, "Vote", { kind: "Vote", vote });
  }
}

/**
 * Votes of the next height can arrive while this height still executes; they are kept (one per
 * validator index, type and round; at most VOTES_PER_NEXT_VALIDATOR per member of the next set)
 * and counted when that height starts.
 */
const VOTES_PER_NEXT_VALIDATOR = 4;

function bufferNextHeightVote(ctx: Ctx, vote: Vote, from: string | undefined): void {
  const s = ctx.s;
  const size = s.chain.nextValidators?.validators.length ?? 0;
  if (!Number.isInteger(vote.validatorIndex) || vote.validatorIndex < 0 || vote.validatorIndex >= size)
    return;
  // The bound is per validator: one validator's votes for many rounds must not take the room of
  // the others' (the total stays within VOTES_PER_NEXT_VALIDATOR × the set's size).
  let ofValidator = 0;
  for (const b of s.nextHeightVotes) {
    if (b.vote.validatorIndex !== vote.validatorIndex) continue;
    if (b.vote.type === vote.type && b.vote.round === vote.round) return;
    ofValidator++;
  }
  if (ofValidator >= VOTES_PER_NEXT_VALIDATOR) return;
  ctx.s = { ...s, nextHeightVotes: [...s.nextHeightVotes, { vote, from }] };
}

/** Counts the votes that came early for the height just entered. */
export function replayNextHeightVotes(ctx: Ctx): void {
  const buffered = ctx.s.nextHeightVotes;
  if (buffered.length === 0) return;
  ctx.s = { ...ctx.s, nextHeightVotes: [] };
  for (const { vote, from } of buffered) onVote(ctx, vote, from);
}

function onLastCommitVote(ctx: Ctx, vote: Vote, from: string | undefined): void {
  const s = ctx.s;
  const lastCommit = s.lastCommit!;
  if (vote.type !== SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT || vote.round !== s.lastCommitRound) return;
  const outcome = addVote(lastCommit, vote, vote.round);
  if (outcome.kind === "conflict") {
    emit(ctx, { type: "ReportConflictingVotes", ...orderConflictingVotes(outcome.existing, outcome.vote) });
    return;
  }
  if (outcome.kind === "rejected" && from !== undefined) {
    emit(ctx, { type: "PeerMisbehaved", peer: from, reason: outcome.reason });
    return;
  }
  if (outcome.kind !== "added") return;
  if (outcome.conflict !== undefined)
    emit(ctx, { type: "ReportConflictingVotes", ...orderConflictingVotes(outcome.conflict.existing, vote) });
  ctx.s = { ...s, lastCommit: outcome.votes };
  publish(ctx, "Vote", { kind: "Vote", vote });
  if (s.config.skipTimeoutCommit && lastCommitHasAll(ctx.s)) startRound(ctx, 0);
}

function haltOnOwn(ctx: Ctx, reason: string): void {
  if (ctx.s.halted !== undefined) return;
  ctx.s = { ...ctx.s, halted: reason };
  emit(ctx, { type: "Halt", reason });
}

/** Our signed vote: counted, then broadcast unless counting it showed we equivocated (halt). */
export function onVoteSigned(ctx: Ctx, vote: Vote): void {
  onVote(ctx, vote, undefined);
  if (ctx.s.halted === undefined) emit(ctx, { type: "BroadcastVote", vote });
}
