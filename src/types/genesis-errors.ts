// Errors of reading genesis.json. Every message names the file, the JSON path and what was
// expected, because the reader is a user fixing a hand-edited file.
import { CodedError } from "../coded-error.js";

export type GenesisErrorCode =
  /** the file could not be read (missing, unreadable, too large). */
  | "GENESIS_UNREADABLE"
  /** the file is not JSON. */
  | "GENESIS_NOT_JSON"
  /** a field has the wrong type, is out of range or breaks a rule of the genesis document. */
  | "GENESIS_INVALID";

export class GenesisError extends CodedError<GenesisErrorCode> {
  /** The file (or source name) the error is about. */
  readonly file: string;
  /** JSON path of the offending field, "" for the whole document. */
  readonly path: string;

  constructor(
    code: GenesisErrorCode,
    file: string,
    path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.file = file;
    this.path = path;
  }
}
