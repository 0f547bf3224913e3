// The consensus reducer: (state, input) → {state, effects}, pure and deterministic. It routes each
// input to its handler, then lets the upon-rules react (handlers/advance.ts). Bad peer data leaves
// the state as it was (at most a PeerMisbehaved effect); only our own broken invariants halt.
import type { ConsensusEffect } from "./effect.js";
import { advance } from "./handlers/advance.js";
import type { Ctx } from "./handlers/context.js";
import { enterNewHeight, lastCommitVotes } from "./handlers/new-height.js";
import { onProposalBlockReaped, onProposalSigned } from "./handlers/propose.js";
import { onBlockPartReceived, onBlockValidated, onProposalReceived } from "./handlers/receive-proposal.js";
import { onVote, onVoteSigned, replayNextHeightVotes } from "./handlers/receive-vote.js";
import { onResumed } from "./handlers/resume.js";
import { onTxsAvailable } from "./handlers/start-round.js";
import { onTimeout } from "./handlers/timeouts.js";
import type { ConsensusInput } from "./input.js";
import type { RuleId } from "./paper-lines.js";
import type { ConsensusRules } from "./rules.js";
import type { ConsensusState } from "./state.js";

export interface ConsensusTransition {
  readonly state: ConsensusState;
  readonly effects: readonly ConsensusEffect[];
  /** The rules of Algorithm 1 that fired, in order (paper-lines.ts); only from a traced reducer. */
  readonly fired?: readonly RuleId[];
}

export type ConsensusReducer = (state: ConsensusState, input: ConsensusInput) => ConsensusTransition;

const NO_EFFECTS: readonly ConsensusEffect[] = [];

/**
 * `trace`: each transition also lists the rules that fired (`fired`), for `rxbft replay --console`
 * and `--trace` logs. The states and effects are the same either way.
 */
export function createConsensusReducer(
  rules: ConsensusRules,
  options: { trace?: boolean } = {},
): ConsensusReducer {
  const trace = options.trace === true;
  return (state, input) => {
    if (state.halted !== undefined) return { state, effects: NO_EFFECTS };
    if (!state.started && input.type !== "ConsensusStarted") return { state, effects: NO_EFFECTS };
    const ctx: Ctx = trace
      ? { s: state, effects: [], now: input.time, rules, fired: [] }
      : { s: state, effects: [], now: input.time, rules };
    route(ctx, input);
    advance(ctx);
    return trace
      ? { state: ctx.s, effects: ctx.effects, fired: ctx.fired }
      : { state: ctx.s, effects: ctx.effects };
  };
}

function route(ctx: Ctx, input: ConsensusInput): void {
  switch (input.type) {
    case "ConsensusStarted":
      enterNewHeight(ctx, {
        chain: input.chainState,
        lastCommit: lastCommitVotes(input.chainState, input.lastCommit),
        lastCommitRound: input.lastCommit?.round ?? -1,
        lastBlockAppHash: input.lastBlockAppHash,
        commitTime: undefined,
      });
      return;
    case "ConsensusResumed":
      onResumed(ctx);
      return;
    case "BlockExecuted": {
      const s = ctx.s;
      if (input.height !== s.height || !s.committed || s.proposalBlock === undefined) return;
      // The last commit a restart would start from (the stored seen commit), never more.
      enterNewHeight(ctx, {
        chain: input.chainState,
        lastCommit: lastCommitVotes(input.chainState, s.seenCommit),
        lastCommitRound: s.commitRound,
        lastBlockAppHash: s.proposalBlock.block.header.appHash,
        commitTime: s.commitTime,
      });
      replayNextHeightVotes(ctx);
      return;
    }
    case "ProposalReceived":
      onProposalReceived(ctx, input.proposal, input.from);
      return;
    case "BlockPartReceived":
      onBlockPartReceived(ctx, input.height, input.part, input.from);
      return;
    case "VoteReceived":
      onVote(ctx, input.vote, input.from);
      return;
    case "TimeoutElapsed":
      onTimeout(ctx, input.height, input.round, input.step);
      return;
    case "TxsAvailable":
      onTxsAvailable(ctx, input.height);
      return;
    case "ProposalBlockReaped":
      onProposalBlockReaped(ctx, input.height, input.round, input.txs, input.evidence);
      return;
    case "ProposalSigned":
      onProposalSigned(ctx, input.proposal);
      return;
    case "VoteSigned":
      onVoteSigned(ctx, input.vote);
      return;
    case "SignFailed": {
      const reason = `signing our ${input.what} for height ${input.height} round ${input.round} failed: ${input.reason}`;
      ctx.s = { ...ctx.s, halted: reason };
      ctx.effects.push({ type: "Halt", reason });
      return;
    }
    case "BlockValidated":
      onBlockValidated(ctx, input.height, input.blockHash, input.error);
      return;
  }
}
