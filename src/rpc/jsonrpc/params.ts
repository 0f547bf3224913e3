// Converting JSON-RPC `params` into a route's arguments (reference §2.3): an object by name
// (missing or null names take the zero value, or undefined for pointer-like parameters) or an
// array by position with exactly one entry per parameter. Integers are accepted as JSON numbers
// or decimal strings (rpc-forms.md); bytes are base64, abci_query's data is hex.

import { CodedError } from "../../coded-error.js";
import { RpcError } from "../errors.js";
import type { ParamSpec, ParamType } from "../route-spec.js";
import { decodeBase64, decodeHex } from "./bytes-text.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const INTEGER_TEXT = /^[+-]?\d+$/;
const HASH_HEX = /^(?:0[xX])?([0-9a-fA-F]{64})$/;

/**
 * A parameter value that does not fit its type; the message names the parameter. Thrown inside the
 * conversion and rewrapped there as the RpcError the client sees.
 */
export class ParamError extends CodedError<"RPC_INVALID_PARAMS"> {
  constructor(message: string) {
    super("RPC_INVALID_PARAMS", message);
  }
}

function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Nesting deep enough to exhaust the stack: say what it is instead.
    text = Array.isArray(value) ? "[…]" : typeof value === "object" ? "{…}" : typeof value;
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function fail(spec: ParamSpec, problem: string): never {
  throw new ParamError(`${spec.name}: ${problem}`);
}

function integerOf(spec: ParamSpec, value: unknown, min: bigint, max: bigint, kind: string): bigint {
  let n: bigint;
  if (typeof value === "number") {
    if (!Number.isInteger(value)) fail(spec, `expected an integer, got ${describe(value)}`);
    if (!Number.isSafeInteger(value)) {
      fail(spec, `${describe(value)} cannot be read exactly from a JSON number; send it as a decimal string`);
    }
    n = BigInt(value);
  } else if (typeof value === "string") {
    if (!INTEGER_TEXT.test(value)) fail(spec, `invalid integer ${describe(value)}, expected decimal digits`);
    n = BigInt(value);
  } else {
    return fail(spec, `expected an integer (a JSON number or a decimal string), got ${describe(value)}`);
  }
  if (n < min || n > max) fail(spec, `value ${n} out of range for ${kind}`);
  return n;
}

/** page, per_page and limit are Go ints: any int64 is accepted, then held as a safe number. */
function clampToSafe(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) return Number.MAX_SAFE_INTEGER;
  if (n < BigInt(Number.MIN_SAFE_INTEGER)) return Number.MIN_SAFE_INTEGER;
  return Number(n);
}

function bytesOf(spec: ParamSpec, value: unknown, kind: "bytes" | "hash" | "hexBytes"): Uint8Array {
  if (typeof value !== "string")
    return fail(spec, `expected a ${kind === "hexBytes" ? "hex" : "base64"} string, got ${describe(value)}`);
  try {
    if (kind === "hexBytes")
      return decodeHex(value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value);
    if (kind === "hash") {
      const hex = HASH_HEX.exec(value);
      if (hex !== null) return decodeHex(hex[1] as string);
    }
    return decodeBase64(value);
  } catch (error) {
    return fail(spec, (error as Error).message);
  }
}

/** The value a missing or null parameter takes: Go's zero value, or undefined for pointers. */
export function zeroValue(spec: ParamSpec): unknown {
  if (spec.optional) return undefined;
  return ZERO[spec.type]();
}

const ZERO: Record<ParamType, () => unknown> = {
  int64: () => 0n,
  int: () => 0,
  uint: () => 0,
  bytes: () => new Uint8Array(0),
  hash: () => new Uint8Array(0),
  hexBytes: () => new Uint8Array(0),
  bool: () => false,
  string: () => "",
  stringArray: () => [],
  json: () => undefined,
};

/** Converts one parsed JSON value to a parameter's type; throws ParamError naming it. */
export function convertJsonValue(spec: ParamSpec, value: unknown): unknown {
  if (value === null || value === undefined) return zeroValue(spec);
  switch (spec.type) {
    case "int64":
      return integerOf(spec, value, INT64_MIN, INT64_MAX, "int64");
    case "int":
      return clampToSafe(integerOf(spec, value, INT64_MIN, INT64_MAX, "int"));
    case "uint":
      return clampToSafe(integerOf(spec, value, 0n, UINT64_MAX, "uint"));
    case "bytes":
    case "hash":
    case "hexBytes":
      return bytesOf(spec, value, spec.type);
    case "bool":
      if (typeof value !== "boolean") fail(spec, `expected true or false, got ${describe(value)}`);
      return value;
    case "string":
      if (typeof value !== "string") fail(spec, `expected a string, got ${describe(value)}`);
      return value;
    case "stringArray":
      if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
        fail(spec, `expected an array of strings, got ${describe(value)}`);
      }
      return value;
    case "json":
      return value;
  }
}

/**
 * The arguments of a route from JSON-RPC params. Absent params count as an empty object
 * (Tendermint panics there; a missing optional argument is what the caller means).
 * Throws RpcError RPC_INVALID_PARAMS with Tendermint's data prefix.
 */
export function argsFromJsonParams(specs: readonly ParamSpec[], params: unknown): Record<string, unknown> {
  try {
    const args: Record<string, unknown> = {};
    if (params === undefined || params === null || (typeof params === "object" && !Array.isArray(params))) {
      const byName = (params ?? {}) as Record<string, unknown>;
      for (const spec of specs) {
        args[spec.name] = convertJsonValue(
          spec,
          Object.hasOwn(byName, spec.name) ? byName[spec.name] : undefined,
        );
      }
      return args;
    }
    if (Array.isArray(params)) {
      if (params.length !== specs.length) {
        throw new ParamError(
          `expected ${specs.length} parameters ([${specs.map((s) => s.name).join(" ")}]), got ${params.length} (${describe(params)})`,
        );
      }
      specs.forEach((spec, i) => {
        args[spec.name] = convertJsonValue(spec, params[i]);
      });
      return args;
    }
    throw new ParamError(`unknown type for JSON params: ${typeof params}. Expected map or array`);
  } catch (error) {
    if (!(error instanceof ParamError)) throw error;
    throw new RpcError("RPC_INVALID_PARAMS", `error converting json params to arguments: ${error.message}`);
  }
}
