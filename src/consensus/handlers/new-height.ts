// Entering a height: after ConsensusStarted (start or restart) and after BlockExecuted (the
// decided block ran). Round 0 starts after timeout_commit counted from the commit time (v0.34's
// StartTime), at once with skip_timeout_commit when every precommit of the last block is in.

import type { Timestamp } from "../../wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../wire/generated/tendermint/state/types.js";
import type { Commit } from "../../wire/generated/tendermint/types/types.js";
import { addMillis, millisUntil } from "../consensus-time.js";
import { RoundStep } from "../round-step.js";
import type { ConsensusState } from "../state.js";
import { sameBytes } from "../vote-keeper/block-key.js";
import { votesFromCommit } from "../vote-keeper/commit-from-votes.js";
import { emptyHeightVotes, type HeightVotes, weightsOf } from "../vote-keeper/height-votes.js";
import { precommitAll } from "../vote-keeper/thresholds.js";
import { type Ctx, publish, roundStateData, scheduleTimeout } from "./context.js";

export interface NewHeightArgs {
  readonly chain: ChainState;
  readonly lastCommit: HeightVotes | undefined;
  readonly lastCommitRound: number;
  readonly lastBlockAppHash: Uint8Array;
  /** When the last height was committed; undefined at start (then: now). */
  readonly commitTime: Timestamp | undefined;
}

export function lastCommitHasAll(s: ConsensusState): boolean {
  return s.lastCommit !== undefined && precommitAll(s.lastCommit, s.lastCommitRound);
}

export function enterNewHeight(ctx: Ctx, args: NewHeightArgs): void {
  const { chain } = args;
  const height = chain.lastBlockHeight === 0n ? chain.initialHeight : chain.lastBlockHeight + 1n;
  const validators = chain.validators?.validators ?? [];
  const own = ctx.s.ownAddress;
  const ownIndex = own === undefined ? -1 : validators.findIndex((v) => sameBytes(v.address, own));
  const startTime = addMillis(args.commitTime ?? ctx.now, ctx.s.config.timeoutCommitMs);
  ctx.s = {
    ...ctx.s,
    started: true,
    chain,
    lastBlockAppHash: args.lastBlockAppHash,
    height,
    round: 0,
    step: RoundStep.NewHeight,
    startTime,
    commitTime: undefined,
    ownIndex,
    roundValidators: chain.validators,
    proposer: undefined,
    proposal: undefined,
    proposalParts: undefined,
    proposalBlock: undefined,
    proposalBlockValid: undefined,
    lockedRound: -1,
    lockedBlock: undefined,
    validRound: -1,
    validBlock: undefined,
    votes: emptyHeightVotes(height, weightsOf(validators)),
    lastCommit: args.lastCommit,
    lastCommitRound: args.lastCommitRound,
    commitRound: -1,
    committed: false,
    seenCommit: undefined,
    prevoteWaitRound: -1,
    polkaBlockRound: -1,
    precommitWaitRound: -1,
    reapRound: -1,
    signingProposalRound: -1,
    signingProposalBlock: undefined,
    // Kept for BlockExecuted to replay; a (re)start has none that belong to this height.
    nextHeightVotes: args.commitTime === undefined ? [] : ctx.s.nextHeightVotes,
  };
  publish(ctx, "NewRoundStep", roundStateData(ctx.s));
  const skip = ctx.s.config.skipTimeoutCommit && lastCommitHasAll(ctx.s);
  scheduleTimeout(ctx, RoundStep.NewHeight, skip ? 0 : millisUntil(ctx.now, startTime), 0);
}

/** The last height's precommits rebuilt from the stored seen commit, counted against the last set. */
export function lastCommitVotes(chain: ChainState, commit: Commit | undefined): HeightVotes | undefined {
  if (commit === undefined || commit.signatures.length === 0) return undefined;
  const weights = weightsOf(chain.lastValidators?.validators ?? []);
  if (weights.addresses.length !== commit.signatures.length) return emptyHeightVotes(commit.height, weights);
  return votesFromCommit(commit, weights);
}
