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
