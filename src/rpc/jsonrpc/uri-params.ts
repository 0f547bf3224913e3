// Converting URI query-string arguments into a route's arguments, with Tendermint's order of
// rules (reference §2.4): integers as bare digits; `0x…` as hex for string and byte targets;
// "quoted" text as raw UTF-8 bytes for byte targets; anything else read as JSON (so strings
// must be quoted, and bools are true/false). Empty or absent means zero value / undefined.

import { RpcError } from "../errors.js";
import type { ParamSpec, ParamType } from "../route-spec.js";
import { decodeHex } from "./bytes-text.js";
import { convertJsonValue, ParamError, zeroValue } from "./params.js";

const BARE_INTEGER = /^-?\d+$/;
const HASH_HEX = /^[0-9a-fA-F]{64}$/;

const INTEGER_TYPES = new Set<ParamType>(["int64", "int", "uint"]);
const BYTE_TYPES = new Set<ParamType>(["bytes", "hash", "hexBytes"]);

/** Go's reflect kind name of each parameter type, for "expected '<kind>'" messages. */
const GO_KIND: Record<ParamType, string> = {
  int64: "int64",
  int: "int",
  uint: "uint",
  bytes: "slice",
  hash: "slice",
  hexBytes: "slice",
  bool: "bool",
  string: "string",
  stringArray: "slice",
  json: "interface",
};

function convertText(spec: ParamSpec, text: string): unknown {
  if (INTEGER_TYPES.has(spec.type) && BARE_INTEGER.test(text)) return convertJsonValue(spec, text);
  if (text.startsWith("0x") || text.startsWith("0X")) {
    if (!BYTE_TYPES.has(spec.type) && spec.type !== "string") {
      throw new ParamError(`${spec.name}: got a hex string arg, but expected '${GO_KIND[spec.type]}'`);
    }
    let bytes: Uint8Array;
    try {
      bytes = decodeHex(text.slice(2));
    } catch (error) {
      throw new ParamError(`${spec.name}: ${(error as Error).message}`);
    }
    return spec.type === "string" ? Buffer.from(bytes).toString("utf8") : bytes;
  }
  if (BYTE_TYPES.has(spec.type)) {
    if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
      const decoded = parseJsonText(spec, text);
      if (typeof decoded !== "string") throw new ParamError(`${spec.name}: invalid quoted string ${text}`);
      return new Uint8Array(Buffer.from(decoded, "utf8"));
    }
    // rxbft also takes a bare 64-digit hex hash, as users copy it from explorers.
    if (spec.type === "hash" && HASH_HEX.test(text)) return decodeHex(text);
  }
  return convertJsonValue(spec, parseJsonText(spec, text));
}

function parseJsonText(spec: ParamSpec, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ParamError(
      `${spec.name}: ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} is not valid JSON (strings must be "quoted")`,
    );
  }
}

/**
 * The arguments of a route from query-string values (`lookup(name)` gives the first value, or
 * undefined). Throws RpcError RPC_INVALID_PARAMS with Tendermint's data prefix.
 */
export function argsFromUri(
  specs: readonly ParamSpec[],
  lookup: (name: string) => string | undefined,
): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  try {
    for (const spec of specs) {
      const text = lookup(spec.name);
      args[spec.name] = text === undefined || text === "" ? zeroValue(spec) : convertText(spec, text);
    }
    return args;
  } catch (error) {
    if (!(error instanceof ParamError)) throw error;
    throw new RpcError("RPC_INVALID_PARAMS", `error converting http params to arguments: ${error.message}`);
  }
}

/**
 * The one argument of a bytes route read straight from a raw query string of the two shapes load
 * generators and clients send (`<name>="text"` as `%22text%22`, or `<name>=0x<hex>`), or
 * undefined for anything else, which then takes the general path (URLSearchParams, argsFromUri).
 * Only shapes whose general reading cannot fail and gives the same bytes are taken: one parameter,
 * quoted text of printable ASCII with no escapes (no `%`, `+`, `&`, `"` or `\\`: percent-decoding,
 * JSON unquoting and UTF-8 leave it as it is), or an even number of hex digits. Every error
 * message therefore stays the general path's. Measured under wrk (docs/mempool.md): the general
 * reading cost more per broadcast_tx_async than the rest of its answer.
 */
export function plainBytesArg(query: string, name: string): Uint8Array | undefined {
  const n = name.length;
  if (query.length < n + 1 || query.charCodeAt(n) !== 0x3d || !query.startsWith(name)) return undefined;
  const start = n + 1;
  const end = query.length;
  if (query.startsWith("%22", start)) {
    if (end - start < 6 || !query.endsWith("%22")) return undefined;
    // Checked and copied in one pass into the tx's own array (no slice, no pooled Buffer).
    const out = new Uint8Array(end - start - 6);
    for (let i = start + 3, j = 0; i < end - 3; i++, j++) {
      const c = query.charCodeAt(i);
      if (c < 0x21 || c > 0x7e || c === 0x22 || c === 0x25 || c === 0x26 || c === 0x2b || c === 0x5c) {
        return undefined;
      }
      out[j] = c;
    }
    return out;
  }
  if (query.charCodeAt(start) === 0x30 && (query.charCodeAt(start + 1) | 0x20) === 0x78) {
    if ((end - start) % 2 !== 0) return undefined;
    for (let i = start + 2; i < end; i++) {
      const c = query.charCodeAt(i);
      const lower = c | 0x20;
      if (!((c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x66))) return undefined;
    }
    return new Uint8Array(Buffer.from(query.slice(start + 2), "hex"));
  }
  return undefined;
}
