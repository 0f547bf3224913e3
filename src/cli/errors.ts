// Errors of the command-line layer: what a command refuses to do, and why.
import { CodedError } from "../coded-error.js";

export type CliErrorCode =
  /** a file the command would create already exists. */
  | "CLI_FILE_EXISTS"
  /** the home lacks a file the command needs (run `rxbft init`). */
  | "CLI_NOT_INITIALISED"
  /** a flag's value is wrong in a way its parser cannot see (e.g. a list of the wrong length). */
  | "CLI_FLAG_INVALID"
  /** running the node is not available in this build yet. */
  | "CLI_NODE_UNAVAILABLE"
  /** a node `testnet start` spawned exited or never answered on its RPC. */
  | "CLI_NODE_START_FAILED";

export class CliError extends CodedError<CliErrorCode> {
  constructor(code: CliErrorCode, message: string) {
    super(code, message);
  }
}
