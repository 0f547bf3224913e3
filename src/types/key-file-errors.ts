// Errors of the key files: priv_validator_key.json, priv_validator_state.json, node_key.json.
// Messages name the file, the JSON path and what was expected; they never echo a private key.
import { CodedError } from "../coded-error.js";

export type KeyFileErrorCode =
  /** the file could not be read or written (missing, permissions, too large). */
  | "KEY_FILE_IO"
  /** the file is not JSON. */
  | "KEY_FILE_NOT_JSON"
  /** a field is missing, has the wrong type or length, or the halves of a key disagree. */
  | "KEY_FILE_INVALID"
  /** refusing to overwrite an existing key file. */
  | "KEY_FILE_EXISTS";

export class KeyFileError extends CodedError<KeyFileErrorCode> {
  readonly file: string;
  /** JSON path of the offending field, "" for the whole file. */
  readonly path: string;

  constructor(
    code: KeyFileErrorCode,
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
