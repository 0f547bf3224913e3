// The node's logger: pino underneath, Tendermint's log_level and log_format on top. One child
// per module (`logger.child("consensus")`) at that module's level; a disabled level is a no-op
// function, so a debug call costs almost nothing when debug is off. Secrets are redacted.
import { writeSync } from "node:fs";
import { type Logger as PinoLogger, pino, stdTimeFunctions } from "pino";
import { LoggerError } from "./errors.js";
import { sanitizeFields } from "./log-fields.js";
import { type LevelSpec, type LogLevel, levelOf, parseLogLevel } from "./log-level.js";
import { plainLine } from "./plain-format.js";

export type LogFields = Record<string, unknown>;
export type LogMethod = (message: string, fields?: LogFields) => void;

export interface Logger {
  readonly module: string;
  readonly level: LogLevel;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  /** A logger for `module`, at the level log_level gives that module. */
  child(module: string): Logger;
  isEnabled(level: Exclude<LogLevel, "none">): boolean;
}

/** Where lines go: a file descriptor (1 = stdout) or anything with write(text). */
export type LogDestination = number | { write(text: string): unknown };

export interface LoggerOptions {
  /** Tendermint log_level: "info", or "consensus:debug,p2p:none,*:info". */
  level?: string;
  /** Where `level` came from, for its error message (default "log_level"; e.g. "flag --log_level"). */
  levelSource?: string;
  format?: "plain" | "json";
  /** Module of the returned logger (Tendermint calls it "main"). */
  module?: string;
  destination?: LogDestination;
}

const PINO_LEVEL: Record<LogLevel, string> = {
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
  none: "silent",
};
const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, none: 4 };
const noop: LogMethod = () => {};
const isoTs = () => `,"ts":"${new Date().toISOString()}"`;

export function createLogger(options: LoggerOptions = {}): Logger {
  const spec = parseLogLevel(options.level ?? "info", options.levelSource);
  const format = options.format ?? "plain";
  if (format !== "plain" && format !== "json") {
    throw new LoggerError(
      "LOG_FORMAT_INVALID",
      `log_format: expected "plain" or "json", got ${JSON.stringify(format)}`,
    );
  }
  const sink = sinkOf(options.destination ?? 1);
  const stream = {
    write(line: string) {
      sink(format === "json" ? line : plainLine(JSON.parse(line) as Record<string, unknown>));
    },
  };
  // json: v0.34's JSON logger's keys: "_msg" for the message, "ts" (RFC 3339, UTC), "level" as a
  // word, "module", then the entry's fields.
  const root = pino(
    {
      level: "debug",
      base: undefined,
      messageKey: format === "json" ? "_msg" : "msg",
      timestamp: format === "json" ? isoTs : stdTimeFunctions.epochTime,
      formatters: {
        level: (label, number) => (format === "json" ? { level: label } : { level: number }),
        log: (fields) => sanitizeFields(fields) as Record<string, unknown>,
      },
    },
    stream,
  );
  return new ModuleLogger(root, spec, options.module ?? "main");
}

class ModuleLogger implements Logger {
  readonly level: LogLevel;
  readonly debug: LogMethod;
  readonly info: LogMethod;
  readonly warn: LogMethod;
  readonly error: LogMethod;
  private readonly pinoChild: PinoLogger;

  constructor(
    private readonly root: PinoLogger,
    private readonly spec: LevelSpec,
    readonly module: string,
  ) {
    this.level = levelOf(spec, module);
    const child = root.child({ module }, { level: PINO_LEVEL[this.level] });
    this.pinoChild = child;
    this.debug = this.method("debug");
    this.info = this.method("info");
    this.warn = this.method("warn");
    this.error = this.method("error");
  }

  child(module: string): Logger {
    return new ModuleLogger(this.root, this.spec, module);
  }

  isEnabled(level: Exclude<LogLevel, "none">): boolean {
    return ORDER[level] >= ORDER[this.level];
  }

  private method(level: Exclude<LogLevel, "none">): LogMethod {
    if (!this.isEnabled(level)) return noop;
    const child = this.pinoChild;
    return (message, fields) =>
      fields === undefined ? child[level](message) : child[level](fields, message);
  }
}

function sinkOf(destination: LogDestination): (text: string) => void {
  if (typeof destination === "number") {
    // Synchronous writes: a line logged just before exit is never lost. A reader that went away
    // (EPIPE, e.g. `| head`) ends logging quietly instead of failing the command.
    let closed = false;
    return (text) => {
      if (closed) return;
      try {
        writeSync(destination, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EPIPE") throw error;
        closed = true;
      }
    };
  }
  return (text) => {
    destination.write(text);
  };
}
