// Errors of the operator commands (rollback, reindex-event, reset-state, compact, debug): what
// an operation refuses to do and why, each message naming the file or height involved.
import { CodedError } from "../coded-error.js";

export type OperationErrorCode =
  /** the home has no data directory (never initialised). */
  | "OP_NOT_INITIALISED"
  /** rollback: there is no height to roll back, or the stores cannot say what it was. */
  | "OP_NOTHING_TO_ROLL_BACK"
  /** the stores disagree in a way no crash leaves; the operation would make it worse. */
  | "OP_INCONSISTENT_STORES"
  /** rollback: the in-process app's data cannot be rolled back with the node's. */
  | "OP_APP_ROLLBACK_IMPOSSIBLE"
  /** reindex-event: the configured indexer cannot be rebuilt (null), or the range is wrong. */
  | "OP_REINDEX_REFUSED"
  /** debug: the node's RPC or process could not be reached, or the output is unusable. */
  | "OP_DEBUG_FAILED";

export class OperationError extends CodedError<OperationErrorCode> {}
