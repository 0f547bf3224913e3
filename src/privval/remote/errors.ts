// Errors of the remote signer, both ends. A code says what went wrong; the message names the
// address, the request and what was expected. A refusal by the signer keeps the signer's own
// code when it sent one (an rxbft signer starts its description with it), so a node that logs it
// tells a double-sign refusal from a full disk.
import { CodedError } from "../../coded-error.js";

export type RemoteSignerErrorCode =
  /** The signer answered the request with an error (a refusal: it did not sign). */
  | "PRIVVAL_REMOTE_REFUSED"
  /** The request or the node's configuration names another chain than the signer's. */
  | "PRIVVAL_WRONG_CHAIN_ID"
  /** The signer answers with another public key than the node signs with. */
  | "PRIVVAL_REMOTE_WRONG_KEY"
  /** The signer's answer is not what was asked (another vote, a bad signature, another type). */
  | "PRIVVAL_REMOTE_BAD_RESPONSE"
  /** A frame that does not decode, or is longer than v0.34's 10 KiB limit. */
  | "PRIVVAL_REMOTE_BAD_FRAME"
  /** A listen or dial address that is neither tcp:// nor unix://, or that cannot be used. */
  | "PRIVVAL_REMOTE_BAD_ADDRESS"
  /** No answer: the connection was lost or timed out on every attempt (v0.34's retry rule). */
  | "PRIVVAL_REMOTE_UNAVAILABLE"
  /** The node or signer stopped while a request was pending. */
  | "PRIVVAL_REMOTE_STOPPED";

/** The code is one of ours, or the code a refusing signer sent in its description. */
export class RemoteSignerError extends CodedError<RemoteSignerErrorCode | string> {}

/** A signer description that starts with one of our codes ("PRIVVAL_CONFLICTING_DATA: …"). */
export function codeOfDescription(description: string): string | undefined {
  return /^(PRIVVAL_[A-Z_]+): /.exec(description)?.[1];
}
