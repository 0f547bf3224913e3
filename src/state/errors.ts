// Errors of block execution and the next-state rules. Most come from the app's answers (bad
// validator or params updates): those name the height, what the app sent and what was wrong.
// All of them stop the block before Commit, so no block is ever half applied.
import { CodedError } from "../coded-error.js";

export type StateErrorCode =
  | "STATE_WRONG_BLOCK"
  | "STATE_LAST_COMMIT_MISMATCH"
  | "STATE_INVALID_VALIDATOR_UPDATE"
  | "STATE_INVALID_PARAMS_UPDATE"
  | "STATE_RESPONSE_COUNT_MISMATCH";

export class StateError extends CodedError<StateErrorCode> {
  readonly height: bigint | undefined;

  constructor(code: StateErrorCode, message: string, height?: bigint, options?: { cause?: unknown }) {
    super(code, height === undefined ? message : `height ${height}: ${message}`, options);
    this.height = height;
  }
}
