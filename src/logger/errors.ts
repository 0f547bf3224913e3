// Errors of the logger module.

export type LoggerErrorCode = "LOG_LEVEL_INVALID" | "LOG_FORMAT_INVALID";

export class LoggerError extends Error {
  readonly code: LoggerErrorCode;

  constructor(code: LoggerErrorCode, message: string) {
    super(message);
    this.name = "LoggerError";
    this.code = code;
  }
}
