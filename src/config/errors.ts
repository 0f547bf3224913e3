// Errors of the config module: the node home, config.toml, flags and the home lock.
// Each carries a string code so the CLI and, later, the RPC can map it without parsing text.
import { CodedError } from "../coded-error.js";

export type ConfigErrorCode =
  /** config.toml (or a flag) holds a value of the wrong type or out of range. */
  | "CONFIG_INVALID"
  /** config.toml is not valid TOML. */
  | "CONFIG_TOML_SYNTAX"
  /** a file or directory of the home could not be read or written. */
  | "CONFIG_IO"
  /** another live process holds the home's lock. */
  | "HOME_LOCKED"
  /** a Go duration string could not be parsed. */
  | "DURATION_INVALID";

export class ConfigError extends CodedError<ConfigErrorCode> {
  constructor(code: ConfigErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
