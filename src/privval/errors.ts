// Errors of the file signer. A refusal names what was asked and what was signed before.
import { CodedError } from "../coded-error.js";

export type PrivvalErrorCode =
  /** A request below the last signed height/round/step. */
  | "PRIVVAL_HRS_REGRESSION"
  /** A different message at the height/round/step already signed (only the timestamp may differ). */
  | "PRIVVAL_CONFLICTING_DATA"
  /** The state says this step was signed but holds no sign bytes or signature to compare with. */
  | "PRIVVAL_NO_SIGN_BYTES"
  /** A request that is not a vote or proposal we can sign (unknown type, negative height or round). */
  | "PRIVVAL_BAD_REQUEST"
  /** The private key is not a 64-byte seed ‖ public key. */
  | "PRIVVAL_BAD_KEY"
  /** The state file could not be written durably: the signer stops signing (the disk state is unknown). */
  | "PRIVVAL_STATE_WRITE_FAILED"
  /** The consensus log's record of the signer's state cannot be read (start-up, state-from-log.ts). */
  | "PRIVVAL_BAD_STATE"
  /** double_sign_check_height found our signature in a recent commit: another signer may hold our key. */
  | "PRIVVAL_RECENT_SIGNATURE";

export class PrivvalError extends CodedError<PrivvalErrorCode> {
  constructor(code: PrivvalErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
