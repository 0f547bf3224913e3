// Errors of the logger module.
import { CodedError } from "../coded-error.js";

export type LoggerErrorCode = "LOG_LEVEL_INVALID" | "LOG_FORMAT_INVALID";

export class LoggerError extends CodedError<LoggerErrorCode> {
  constructor(code: LoggerErrorCode, message: string) {
    super(code, message);
  }
}
