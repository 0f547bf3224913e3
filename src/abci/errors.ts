// Errors of the ABCI module. Each carries a stable string code; connection errors also name the
// connection (consensus, mempool, query, snapshot) so a log line says which one failed.
import { CodedError } from "../coded-error.js";

export type AbciErrorCode =
  | "ABCI_FRAME_NEGATIVE_LENGTH"
  | "ABCI_FRAME_TOO_LARGE"
  | "ABCI_FRAME_BAD_VARINT"
  | "ABCI_MALFORMED_RESPONSE"
  | "ABCI_UNEXPECTED_RESPONSE"
  | "ABCI_EXCEPTION"
  | "ABCI_CONNECTION_CLOSED"
  | "ABCI_CONNECT_FAILED"
  | "ABCI_QUEUE_FULL"
  | "ABCI_BAD_ADDRESS"
  | "ABCI_UNKNOWN_APP"
  | "ABCI_APP_FAILED"
  | "ABCI_HANDSHAKE_APP_HASH_MISMATCH"
  | "ABCI_HANDSHAKE_APP_AHEAD"
  | "ABCI_HANDSHAKE_INVALID"
  | "ABCI_HANDSHAKE_MISSING_DATA";

/** Exit code the node uses when it halts because of the app (lost connection, bad hash). */
export const ABCI_HALT_EXIT_CODE = 3;

export class AbciError extends CodedError<AbciErrorCode> {
  /** The connection the error happened on, when there is one. */
  readonly connection: string | undefined;
  readonly exitCode = ABCI_HALT_EXIT_CODE;

  constructor(code: AbciErrorCode, message: string, connection?: string, options?: { cause?: unknown }) {
    super(code, connection === undefined ? message : `abci ${connection} connection: ${message}`, options);
    this.connection = connection;
  }
}

/** Codes that mean a connection can no longer be used (every later call fails with the same error). */
export function isFatalConnectionError(error: unknown): error is AbciError {
  return (
    error instanceof AbciError &&
    error.code !== "ABCI_QUEUE_FULL" &&
    error.code !== "ABCI_BAD_ADDRESS" &&
    error.code !== "ABCI_UNKNOWN_APP"
  );
}
