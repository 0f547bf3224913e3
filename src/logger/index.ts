// The logger module: structured logs with Tendermint's log_level ("consensus:debug,*:info") and
// log_format (plain | json), one child per module, secrets redacted. Never used in reducers.
export { LoggerError, type LoggerErrorCode } from "./errors.js";
export { REDACTED, sanitizeFields } from "./log-fields.js";
export { type LevelSpec, LOG_LEVELS, type LogLevel, levelOf, parseLogLevel } from "./log-level.js";
export {
  createLogger,
  type LogDestination,
  type LogFields,
  type Logger,
  type LoggerOptions,
  type LogMethod,
} from "./logger.js";
