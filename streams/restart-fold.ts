// The restart rule of the consensus log, shared by the node (at start) and `rxbft replay` so
// that both fold exactly the same sequence:
//
//   at a ConsensusStarted record, the reducer starts from its initial state, folds that record,
//   then re-folds every input of the unfinished height logged before it (the inputs after the
//   last end-of-height marker), except earlier ConsensusStarted and BlockExecuted records and
//   SignFailed records of a transient failure (see below).
//
// A SignFailed halts the run that folded it, always. At a restart, one whose reason starts with a
// transient code (SIGNER_IO: the signer or the log sync before it failed on I/O;
// PRIVVAL_STATE_WRITE_FAILED: the signer's state file could not be written; PRIVVAL_REMOTE_UNAVAILABLE:
// a remote signer stayed away through v0.34's retries) is not re-folded: the
// restarted node is not halted, and the signature it asked for (now unanswered) is asked again.
// Retrying is safe: the signer's own state file, not the log, keeps it from double signing. Every
// other SignFailed (a refusal: PRIVVAL_CONFLICTING_DATA, PRIVVAL_HRS_REGRESSION, … and any reason
// without a transient code, as older logs have) is re-folded and halts the restarted node too.
// The rule reads only the logged record, so `rxbft replay` reaches the same states as the node.
//
// A restarted node appends its ConsensusStarted to the log before anything else, so the log
// alone says what every run folded. Re-folded inputs are not logged again, and their effects
// are not carried out again, except the requests still unanswered (outstandingEffects).
import type { ConsensusEffect } from "../src/consensus/effect.js";
import type { ConsensusInput } from "../src/consensus/input.js";
import type { ConsensusReducer } from "../src/consensus/reducer.js";
import type { ConsensusState } from "../src/consensus/state.js";
import { SignedMsgType } from "../src/wire/generated/tendermint/types/types.js";

export interface FoldStep {
  input: ConsensusInput;
  state: ConsensusState;
  effects: readonly ConsensusEffect[];
  /** True for an input folded again at a restart (not a new record of the log). */
  refolded: boolean;
}

/** Reason prefixes of a signing failure that a restart retries (see the rule above). */
export const TRANSIENT_SIGN_FAILURE_CODES = [
  "SIGNER_IO",
  "PRIVVAL_STATE_WRITE_FAILED",
  // A remote signer that stayed away through every retry, or a node stopped while waiting for it.
  "PRIVVAL_REMOTE_UNAVAILABLE",
  "PRIVVAL_REMOTE_STOPPED",
] as const;

/** Whether a logged SignFailed reason is a transient failure (I/O), not a refusal. */
export function isTransientSignFailure(reason: string): boolean {
  return TRANSIENT_SIGN_FAILURE_CODES.some((code) => reason.startsWith(`${code}: `));
}

/**
 * The error a signing failure is logged with: its reason starts with the signer's code (a
 * PrivvalError), else SIGNER_IO (the file system, the log sync), so the restart rule can tell a
 * transient failure from a refusal by the record alone.
 */
export function codedSignError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { name?: unknown; code?: unknown } | undefined)?.code;
  const privval =
    error instanceof Error &&
    (error.name === "PrivvalError" || error.name === "RemoteSignerError") &&
    typeof code === "string";
  return new Error(`${privval ? code : "SIGNER_IO"}: ${message}`, { cause: error });
}

/** Whether an input of the unfinished height is folded again at a restart. */
export function isRefolded(input: ConsensusInput): boolean {
  if (input.type === "SignFailed") return !isTransientSignFailure(input.reason);
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
        // A request answered by a re-folded SignFailed (a refusal) is answered: never asked again.
        case "SignVote":
          if (
            !later.some(
              (x) =>
                (x.type === "VoteSigned" &&
                  x.vote.height === effect.vote.height &&
                  x.vote.round === effect.vote.round &&
                  x.vote.type === effect.vote.type) ||
                (x.type === "SignFailed" &&
                  x.height === effect.vote.height &&
                  x.round === effect.vote.round &&
                  x.what ===
                    (effect.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit")),
            )
          )
            out.push(effect);
          break;
        case "SignProposal":
          if (
            !later.some(
              (x) =>
                (x.type === "ProposalSigned" &&
                  x.proposal.height === effect.proposal.height &&
                  x.proposal.round === effect.proposal.round) ||
                (x.type === "SignFailed" &&
                  x.height === effect.proposal.height &&
                  x.round === effect.proposal.round &&
                  x.what === "proposal"),
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
