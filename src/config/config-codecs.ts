// io-ts codecs of config.toml values. Each is named by what it expects, in words, because that
// name is what a user reads in "config.toml: [consensus] timeout_propose: expected a Go
// duration like "3s", got 42".
import type * as t from "io-ts";
import { expecting, Problem } from "../types/genesis-io-ts.js";
import { formatGoDuration, msToNanoseconds, nanosecondsToMs, parseGoDuration } from "./duration.js";

/** Longest string value accepted for any key (paths, addresses, lists). */
export const MAX_CONFIG_STRING = 64 * 1024;

export function anyString(maxLength = MAX_CONFIG_STRING): t.Type<string> {
  return expecting<string>("a string", (input) =>
    typeof input === "string"
      ? input.length <= maxLength
        ? input
        : new Problem(`longer than ${maxLength} characters`)
      : new Problem(),
  );
}

export function nonEmptyString(example: string): t.Type<string> {
  return expecting<string>(`a non-empty string like ${JSON.stringify(example)}`, (input) =>
    typeof input === "string" && input.length > 0 && input.length <= MAX_CONFIG_STRING
      ? input
      : new Problem(),
  );
}

export const bool = expecting<boolean>("true or false", (input) =>
  typeof input === "boolean" ? input : new Problem(),
);

/** An integer in [min, max]; TOML integers arrive as numbers. */
export function integer(min: number, max: number = Number.MAX_SAFE_INTEGER): t.Type<number> {
  const what = max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer in ${min}…${max}`;
  return expecting<number>(what, (input) =>
    typeof input === "number" && Number.isInteger(input) && input >= min && input <= max
      ? input
      : new Problem(),
  );
}

/** An integer Tendermint's template writes as a quoted string (statesync.chunk_fetchers). */
export function integerOrString(min: number): t.Type<number> {
  return expecting<number>(`an integer ≥ ${min} (a number or a quoted number like "4")`, (input) => {
    const value = typeof input === "string" && /^-?\d{1,15}$/.test(input) ? Number(input) : input;
    return typeof value === "number" && Number.isInteger(value) && value >= min ? value : new Problem();
  });
}

/** A non-negative Go duration string; decodes to milliseconds, the unit the node's timers use. */
export const duration = expecting<number, string>(
  'a Go duration like "3s"',
  (input) => {
    if (typeof input !== "string") return new Problem();
    const nanos = parseGoDuration(input);
    if (typeof nanos === "string") return new Problem(nanos);
    if (nanos < 0n) return new Problem("a duration may not be negative");
    return nanosecondsToMs(nanos);
  },
  (ms) => formatGoDuration(msToNanoseconds(ms)),
);

export function oneOf<const V extends string>(values: readonly V[], note = ""): t.Type<V> {
  const what = `one of ${values.map((v) => JSON.stringify(v)).join(", ")}${note}`;
  return expecting<V>(what, (input) => (values.includes(input as V) ? (input as V) : new Problem()));
}

export function stringArray(example: string): t.Type<string[]> {
  return expecting<string[]>(`an array of strings like ${example}`, (input) =>
    Array.isArray(input) && input.length <= 1024 && input.every((entry) => typeof entry === "string")
      ? [...(input as string[])]
      : new Problem(),
  );
}

const HOST_PORT = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]*):(\d{1,5})$/;

function validPort(text: string): boolean {
  const match = HOST_PORT.exec(text);
  return match !== null && Number(match[1]) <= 65535;
}

/**
 * A listen address: `tcp://host:port`, or `unix://path` when `unix` is allowed; "" when
 * `allowEmpty` (the feature is off).
 */
export function listenAddress(
  example: string,
  options: { allowEmpty?: boolean; unix?: boolean } = {},
): t.Type<string> {
  const forms = options.unix ? `"tcp://host:port" or "unix://path"` : `"tcp://host:port"`;
  const what = `an address like ${JSON.stringify(example)} (${forms}${options.allowEmpty ? ', or "" for off' : ""})`;
  return expecting<string>(what, (input) => {
    if (typeof input !== "string") return new Problem();
    if (input === "") return options.allowEmpty ? input : new Problem();
    if (options.unix && input.startsWith("unix://") && input.length > 7) return input;
    const rest = input.startsWith("tcp://") ? input.slice(6) : undefined;
    if (rest === undefined) return new Problem("missing tcp:// prefix");
    return validPort(rest) ? input : new Problem("expected host:port after tcp://");
  });
}

/** `host:port` with an optional `tcp://` prefix, or "" (p2p.external_address). */
export function hostPort(example: string, allowEmpty: boolean): t.Type<string> {
  return expecting<string>(
    `an address like ${JSON.stringify(example)}${allowEmpty ? ' or ""' : ""}`,
    (input) => {
      if (typeof input !== "string") return new Problem();
      if (input === "") return allowEmpty ? input : new Problem();
      return validPort(input.replace(/^tcp:\/\//, "")) ? input : new Problem();
    },
  );
}

const NODE_ID = /^[0-9a-fA-F]{40}$/;

/** Comma-separated `<40 hex node id>@host:port`, or "". */
export const peerList = expecting<string>(
  'comma-separated peers like "<40-hex node id>@127.0.0.1:26656", or ""',
  (input) => {
    if (typeof input !== "string" || input.length > MAX_CONFIG_STRING) return new Problem();
    for (const [index, entry] of splitList(input).entries()) {
      const at = entry.indexOf("@");
      const id = at < 0 ? "" : entry.slice(0, at);
      if (!NODE_ID.test(id))
        return new Problem(`entry ${index + 1} ${JSON.stringify(entry)} has no 40-hex node id before "@"`);
      if (!validPort(entry.slice(at + 1).replace(/^tcp:\/\//, ""))) {
        return new Problem(`entry ${index + 1} ${JSON.stringify(entry)} has no host:port after "@"`);
      }
    }
    return input;
  },
);

/** Comma-separated 40-hex node IDs, or "". */
export const nodeIdList = expecting<string>('comma-separated 40-hex node ids, or ""', (input) => {
  if (typeof input !== "string" || input.length > MAX_CONFIG_STRING) return new Problem();
  const bad = splitList(input).find((id) => !NODE_ID.test(id));
  return bad === undefined ? input : new Problem(`${JSON.stringify(bad)} is not a node id`);
});

/** Comma-separated RPC servers `host:port` (statesync.rpc_servers), or "". */
export const serverList = expecting<string>(
  'comma-separated servers like "127.0.0.1:26657,127.0.0.1:36657", or ""',
  (input) => (typeof input === "string" && input.length <= MAX_CONFIG_STRING ? input : new Problem()),
);

/** Splits a comma-separated list, trimming spaces and dropping empty entries. */
export function splitList(text: string): string[] {
  return text
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}

/**
 * The example apps a node runs in process, by their proxy_app names (v0.34's list). The ABCI
 * client builds them from this same list, so the config never rejects a name the client knows.
 */
export const IN_PROCESS_APPS = [
  "kvstore",
  "persistent_kvstore",
  "counter",
  "counter_serial",
  "noop",
] as const;

/** An ABCI address (`tcp://host:port`, `unix://path`) or an in-process app's name. */
export const proxyApp = expecting<string>(
  `an ABCI address like "tcp://127.0.0.1:26658" or "unix://app.sock", or one of ${IN_PROCESS_APPS.map((a) => `"${a}"`).join(", ")}`,
  (input) => {
    if (typeof input !== "string") return new Problem();
    if ((IN_PROCESS_APPS as readonly string[]).includes(input)) return input;
    if (input.startsWith("unix://") && input.length > 7) return input;
    if (input.startsWith("tcp://") && validPort(input.slice(6))) return input;
    return new Problem();
  },
);

export const LOG_LEVELS = ["debug", "info", "warn", "error", "none"] as const;

/** Tendermint's log_level: `info`, or `module:level` pairs like `consensus:debug,p2p:none,*:info`. */
export const logLevel = expecting<string>(
  `a level (${LOG_LEVELS.join(", ")}) or module levels like "consensus:debug,*:info"`,
  (input) => {
    if (typeof input !== "string" || input.length > 4096) return new Problem();
    if ((LOG_LEVELS as readonly string[]).includes(input)) return input;
    for (const pair of input.split(",")) {
      const [module, level, extra] = pair.split(":");
      if (extra !== undefined || !module || !level || !(LOG_LEVELS as readonly string[]).includes(level)) {
        return new Problem(`${JSON.stringify(pair)} is not module:level`);
      }
    }
    return input;
  },
);

/** Hex of a hash, or "" (statesync.trust_hash). */
export const hashHex = expecting<string>('a hex hash like "6A0C…", or ""', (input) =>
  typeof input === "string" && /^(?:[0-9a-fA-F]{2}){0,64}$/.test(input) ? input : new Problem(),
);

/** A moniker: a non-empty ASCII name, as NodeInfo requires. */
export const moniker = expecting<string>("a non-empty ASCII name of at most 256 characters", (input) =>
  typeof input === "string" && input.length > 0 && input.length <= 256 && /^[\x20-\x7e]+$/.test(input)
    ? input
    : new Problem(),
);
