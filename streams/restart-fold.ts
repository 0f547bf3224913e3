// The restart rule of the consensus log, shared by the node (at start) and `rxbft replay` so
// that both fold exactly the same sequence:
//
//   at a ConsensusStarted record, the reducer starts from its initial state, folds that record,
//   then re-folds every input of the unfinished height logged before it (the inputs after the
//   last end-of-height marker), except earlier ConsensusStarted and BlockExecuted records.
//
// A restarted node appends its ConsensusStarted to the log before anything else, so the log
// alone says what every run folded. Re-folded inputs are not logged again, and their effects
// are not carried out again, except the requests still unanswered (outstandingEffects).
import type { ConsensusEffect } from "../src/consensus/effect.js";
import type { ConsensusInput } from "../src/consensus/input.js";
import type { ConsensusReducer } from "../src/consensus/reducer.js";
import type { ConsensusState } from "../src/consensus/state.js";

export interface FoldStep {
  input: ConsensusInput;
  state: ConsensusState;
  effects: readonly ConsensusEffect[];
  /** True for an input folded again at a restart (not a new record of the log). */
  refolded: boolean;
}

/** Whether an input of the unfinished height is folded again at a restart. */
export function isRefolded(input: ConsensusInput): boolean {
  return input.type !== "ConsensusStarted" && input.type !== "BlockExecuted";
}

/**
 * Folds a restart: `started` (the new ConsensusStarted) from `initial`, then the earlier inputs of
 * the height. Calls `onStep` for each fold; returns the state reached.
 */
export function foldRestart(
  reducer: ConsensusReducer,
  initial: ConsensusState,
  started: ConsensusInput,
  earlier: readonly ConsensusInput[],
  onStep?: (step: FoldStep) => void,
): ConsensusState {
  let t = reducer(initial, started);
  onStep?.({ input: started, state: t.state, effects: t.effects, refolded: false });
  let state = t.state;
  for (const input of earlier) {
    if (!isRefolded(input)) continue;
    t = reducer(state, input);
    state = t.state;
    onStep?.({ input, state, effects: t.effects, refolded: true });
  }
  return state;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/**
 * The effects of a restart fold that still need carrying out: requests whose answer is not among
 * the re-folded inputs (a crash came between the request and its answer), the latest timeout,
 * evidence reports and a halt. Broadcasts and events of the past are not repeated.
 */
export function outstandingEffects(
  steps: readonly { input: ConsensusInput; effects: readonly ConsensusEffect[] }[],
): ConsensusEffect[] {
  const out: ConsensusEffect[] = [];
  let lastTimeout: ConsensusEffect | undefined;
  for (let i = 0; i < steps.length; i++) {
    for (const effect of steps[i]!.effects) {
      const later = steps.slice(i + 1).map((s) => s.input);
      switch (effect.type) {
        case "ScheduleTimeout":
          lastTimeout = effect;
          break;
        case "SignVote":
          if (
            !later.some(
              (x) =>
                x.type === "VoteSigned" &&
                x.vote.height === effect.vote.height &&
                x.vote.round === effect.vote.round &&
                x.vote.type === effect.vote.type,
            )
          )
            out.push(effect);
          break;
        case "SignProposal":
          if (
            !later.some(
              (x) =>
                x.type === "ProposalSigned" &&
                x.proposal.height === effect.proposal.height &&
                x.proposal.round === effect.proposal.round,
            )
          )
            out.push(effect);
          break;
        case "ReapProposalBlock":
          if (
            !later.some(
              (x) =>
                x.type === "ProposalBlockReaped" && x.height === effect.height && x.round === effect.round,
            )
          )
            out.push(effect);
          break;
        case "ValidateBlock":
          if (
            !later.some(
              (x) =>
                x.type === "BlockValidated" &&
                x.height === effect.height &&
                sameBytes(x.blockHash, effect.blockId.hash),
            )
          )
            out.push(effect);
          break;
        case "CommitBlock":
        case "ReportConflictingVotes":
        case "Halt":
          out.push(effect);
          break;
        default:
          break;
      }
    }
  }
  // The timeout goes first: a request answered at once must not be overtaken by an older timer.
  return lastTimeout === undefined ? out : [lastTimeout, ...out];
}
