// Tendermint-style log levels: "info", or per-module pairs "consensus:debug,p2p:none,*:info".
// `*` sets the level of every module not named; a bare level is the same as "*:<level>".
import { LoggerError } from "./errors.js";

export type LogLevel = "debug" | "info" | "warn" | "error" | "none";
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "none"];

export interface LevelSpec {
  /** Level of modules not named. */
  fallback: LogLevel;
  /** Level per module name. */
  modules: ReadonlyMap<string, LogLevel>;
}

const MAX_SPEC_LENGTH = 4096;

export function parseLogLevel(text: string, where = "log_level"): LevelSpec {
  if (text.length > MAX_SPEC_LENGTH) {
    throw new LoggerError(
      "LOG_LEVEL_INVALID",
      `${where}: expected at most ${MAX_SPEC_LENGTH} characters, got ${text.length}`,
    );
  }
  if (isLevel(text)) return { fallback: text, modules: new Map() };
  const modules = new Map<string, LogLevel>();
  let fallback: LogLevel = "info";
  for (const pair of text.split(",")) {
    const [module, level, extra] = pair.trim().split(":");
    if (extra !== undefined || !module || !level || !isLevel(level)) {
      throw new LoggerError(
        "LOG_LEVEL_INVALID",
        `${where}: expected a level (${LOG_LEVELS.join(", ")}) or module:level pairs like "consensus:debug,*:info", got ${JSON.stringify(text)}`,
      );
    }
    if (module === "*") fallback = level;
    else modules.set(module, level);
  }
  return { fallback, modules };
}

export function levelOf(spec: LevelSpec, module: string): LogLevel {
  return spec.modules.get(module) ?? spec.fallback;
}

function isLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}
