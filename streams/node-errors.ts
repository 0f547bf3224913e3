// Errors of the node assembly: typed with string codes, each naming what is wrong and where, so
// `rxbft node` ends with a sentence an operator can act on rather than a stack trace.
import { CodedError } from "../src/coded-error.js";
export type NodeErrorCode =
  | "NODE_WAL_AHEAD_OF_STORE"
  | "NODE_BLOCK_COMMIT_FAILED"
  | "NODE_HALTED"
  | "NODE_STOPPED"
  | "NODE_TX_COMMIT_TIMEOUT"
  | "NODE_NO_RPC_ADDRESS"
  | "NODE_START_FAILED"
  | "NODE_REPLAY_SOURCE"
  | "NODE_INSPECT_RUNNING"
  /** The home lacks a file the node needs (run `rxbft init`). */
  | "NODE_NOT_INITIALISED"
  /** A flag's value is wrong in a way its parser cannot see (--genesis_hash). */
  | "NODE_FLAG_INVALID";

export class NodeError extends CodedError<NodeErrorCode> {
  constructor(
    code: NodeErrorCode,
    message: string,
    /** For NODE_TX_COMMIT_TIMEOUT: the tx hash (upper-case hex) the caller can look up later. */
    readonly txHash?: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Exit codes of `rxbft node`: 0 after a requested stop; ABCI failures use the abci module's code. */
export const EXIT_HALTED = 2;
