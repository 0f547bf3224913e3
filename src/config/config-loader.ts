// Loads the configuration: defaults, then config/config.toml, then flags, then the rules that
// span keys. Every problem names where it is ("<file>: [section] key" or "flag --name"), what
// was expected and what was found; unknown keys are warnings naming them.
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { describeActual, problemsOf } from "../types/genesis-io-ts.js";
import { writeFileAtomic } from "../types/key-file-atomic-write.js";
import { defaultConfig } from "./config-defaults.js";
import { type AnyKeySpec, type NodeConfig, SCHEMA } from "./config-schema.js";
import { configToToml } from "./config-toml-writer.js";
import { crossKeyProblems } from "./config-validate.js";
import { ConfigError } from "./errors.js";

/** config.toml is a few KB; refuse anything absurd before parsing it. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;
/** Problems listed in one error before "… and N more". */
const MAX_LISTED_PROBLEMS = 10;

/**
 * Flag values that override the file, keyed by "section.key" ("rpc.laddr") or the base key
 * ("proxy_app"). Strings are converted per key (numbers, booleans); undefined is "not given".
 */
export type FlagOverrides = Readonly<Record<string, string | number | boolean | undefined>>;

export interface LoadedConfig {
  config: NodeConfig;
  /** Unknown keys and sections, each naming the file and the key. */
  warnings: string[];
  /** Absolute path of config.toml. */
  file: string;
  /** Whether config.toml existed (when not, the defaults were used and, if asked, written). */
  fileExisted: boolean;
}

export interface LoadConfigOptions {
  /** Write config.toml with the defaults when it is missing (as Tendermint does). */
  writeIfMissing?: boolean;
  /** The moniker when the file has none (defaults to the host name). */
  defaultMoniker?: string;
  /** Flag names to show in errors, by override key (default: the override key itself). */
  flagNames?: Readonly<Record<string, string>>;
}

export function configFilePath(home: string): string {
  return join(home, "config", "config.toml");
}

export function loadConfig(
  home: string,
  flagOverrides: FlagOverrides = {},
  options: LoadConfigOptions = {},
): LoadedConfig {
  const file = configFilePath(home);
  const fileExisted = existsSync(file);
  let text: string | undefined;
  if (fileExisted) {
    try {
      const size = statSync(file).size;
      if (size > MAX_CONFIG_FILE_BYTES) {
        throw new ConfigError(
          "CONFIG_IO",
          `${file}: ${size} bytes is larger than the ${MAX_CONFIG_FILE_BYTES}-byte limit of a config file`,
        );
      }
      text = readFileSync(file, "utf8");
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError("CONFIG_IO", `${file}: cannot read: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  const result = configFromToml(text ?? "", file, flagOverrides, options);
  if (!fileExisted && options.writeIfMissing) {
    try {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      writeFileAtomic(file, configToToml(defaultConfig(result.config.moniker)), 0o644);
    } catch (error) {
      throw new ConfigError(
        "CONFIG_IO",
        `${file}: cannot write the default config: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return { ...result, file, fileExisted };
}

/** Parses config.toml text (`fileName` names it in messages) and applies the overrides. */
export function configFromToml(
  text: string,
  fileName: string,
  flagOverrides: FlagOverrides = {},
  options: LoadConfigOptions = {},
): { config: NodeConfig; warnings: string[] } {
  let document: Record<string, unknown>;
  try {
    document = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const { line, column, message } = error as { line?: number; column?: number; message: string };
    const first = message.split("\n")[0]?.replace(/^Invalid TOML document: /, "") ?? message;
    const at = line === undefined ? "" : ` at line ${line}, column ${column}`;
    throw new ConfigError(
      "CONFIG_TOML_SYNTAX",
      `${fileName}: expected valid TOML, got a syntax error${at}: ${first}`,
    );
  }
  const config = defaultConfig(options.defaultMoniker);
  const warnings: string[] = [];
  const problems: string[] = [];

  for (const [name, value] of Object.entries(document)) {
    if (name in SCHEMA && name !== "") {
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        problems.push(
          `${fileName}: [${name}]: expected a table (a [${name}] section), got ${describeActual(value)}`,
        );
        continue;
      }
      applySection(fileName, name, value as Record<string, unknown>, config, problems, warnings);
    } else if (name in SCHEMA[""]) {
      applyKey(
        `${fileName}: ${name}`,
        SCHEMA[""][name as keyof (typeof SCHEMA)[""]],
        value,
        config as unknown as Record<string, unknown>,
        name,
        problems,
      );
    } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      warnings.push(`${fileName}: unknown section [${name}] (ignored)`);
    } else {
      warnings.push(`${fileName}: unknown key ${name} (ignored)`);
    }
  }

  for (const [overrideKey, value] of Object.entries(flagOverrides)) {
    if (value === undefined) continue;
    const flag = options.flagNames?.[overrideKey] ?? overrideKey;
    const dot = overrideKey.indexOf(".");
    const section = dot < 0 ? "" : overrideKey.slice(0, dot);
    const name = dot < 0 ? overrideKey : overrideKey.slice(dot + 1);
    const keys = (SCHEMA as Record<string, Record<string, AnyKeySpec>>)[section];
    const spec = keys?.[name];
    if (spec === undefined) throw new Error(`no config key ${overrideKey} for flag --${flag}`);
    const target = (section === "" ? config : config[section as keyof NodeConfig]) as Record<string, unknown>;
    applyKey(`flag --${flag}`, spec, fromFlag(spec, value), target, name, problems);
  }

  if (problems.length === 0) {
    for (const problem of crossKeyProblems(config)) {
      problems.push(`${fileName}: ${problem.where}: expected ${problem.expected}, got ${problem.actual}`);
    }
  }
  if (problems.length > 0) {
    const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
    const more = problems.length - listed.length;
    throw new ConfigError("CONFIG_INVALID", listed.join("\n") + (more > 0 ? `\n… and ${more} more` : ""));
  }
  return { config, warnings };
}

function applySection(
  fileName: string,
  section: string,
  table: Record<string, unknown>,
  config: NodeConfig,
  problems: string[],
  warnings: string[],
): void {
  const keys = (SCHEMA as Record<string, Record<string, AnyKeySpec>>)[section] as Record<string, AnyKeySpec>;
  const target = config[section as keyof NodeConfig] as Record<string, unknown>;
  for (const [name, value] of Object.entries(table)) {
    const spec = keys[name];
    if (spec === undefined) {
      warnings.push(`${fileName}: unknown key [${section}] ${name} (ignored)`);
      continue;
    }
    applyKey(`${fileName}: [${section}] ${name}`, spec, value, target, name, problems);
  }
}

function applyKey(
  where: string,
  spec: AnyKeySpec,
  value: unknown,
  target: Record<string, unknown>,
  name: string,
  problems: string[],
): void {
  const decoded = spec.codec.decode(value);
  if (decoded._tag === "Right") {
    target[name] = decoded.right;
    return;
  }
  const [problem] = problemsOf(decoded.left);
  const detail = problem?.detail ? ` (${problem.detail})` : "";
  problems.push(`${where}: expected ${spec.codec.name}, got ${describeActual(value)}${detail}`);
}

/** Flags arrive as text: numbers and booleans are converted for keys of those kinds. */
function fromFlag(spec: AnyKeySpec, value: string | number | boolean): unknown {
  if (typeof value !== "string") return value;
  if (spec.kind === "int" && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (spec.kind === "bool" && (value === "true" || value === "false")) return value === "true";
  if (spec.kind === "string-list") return value === "" ? [] : value.split(",");
  return value;
}

/** A path of the config, made absolute against the home when it is relative. */
export function resolveHomePath(home: string, path: string): string {
  return isAbsolute(path) ? path : join(home, path);
}
