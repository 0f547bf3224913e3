// Reading JSON-RPC requests from a POST body or a WebSocket message, with Tendermint's rules
// (reference §2.3): a body is an array of requests or one request; `id` is a string or a
// number (truncated to an integer), and missing or null marks a notification; any other id
// type, or a wrong type for jsonrpc/method, fails the whole body as a parse error. Field names
// match case-insensitively, as Go's encoding/json does. The "jsonrpc":"2.0" check is not made.

import { RpcError } from "../errors.js";
import type { JsonRpcId } from "./envelope.js";

export interface JsonRpcRequest {
  /** undefined for a notification, which is never answered */
  id: JsonRpcId | undefined;
  method: string;
  /** the params value as parsed JSON; undefined when absent */
  params: unknown;
}

function parseError(detail: string): RpcError {
  return new RpcError("RPC_PARSE_ERROR", `error unmarshaling request: ${detail}`);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function readId(value: unknown, where: string): JsonRpcId | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    // Go converts the float64 to int: fractions are dropped; beyond int64 the value is clamped.
    const id = Math.trunc(value);
    return Number.isSafeInteger(id) ? id : Math.sign(id) * Number.MAX_SAFE_INTEGER;
  }
  throw parseError(`${where}json-rpc ID (${JSON.stringify(value)}) is of unknown type (${typeName(value)})`);
}

/** One request from a parsed JSON value; null is a notification, as Go decodes it. */
export function requestFromValue(value: unknown, where = ""): JsonRpcRequest {
  if (value === null) return { id: undefined, method: "", params: undefined };
  if (typeof value !== "object" || Array.isArray(value)) {
    throw parseError(`${where}cannot unmarshal ${typeName(value)} into a request object`);
  }
  let id: unknown;
  let method: unknown = "";
  let params: unknown;
  let version: unknown = "";
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    switch (key.toLowerCase()) {
      case "id":
        id = field;
        break;
      case "method":
        method = field;
        break;
      case "params":
        params = field;
        break;
      case "jsonrpc":
        version = field;
        break;
    }
  }
  if (version !== null && typeof version !== "string") {
    throw parseError(`${where}cannot unmarshal ${typeName(version)} into field jsonrpc of type string`);
  }
  if (method !== null && typeof method !== "string") {
    throw parseError(`${where}cannot unmarshal ${typeName(method)} into field method of type string`);
  }
  return { id: readId(id, where), method: method ?? "", params };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw parseError((error as Error).message);
  }
}

/** Every request of a POST body: an array of requests, or one request object. */
export function parseRequestBody(text: string): JsonRpcRequest[] {
  const value = parseJson(text);
  if (Array.isArray(value)) return value.map((entry, i) => requestFromValue(entry, `request ${i}: `));
  return [requestFromValue(value)];
}

/** The one request of a WebSocket message; an array (a batch) is a parse error there. */
export function parseWebSocketRequest(text: string): JsonRpcRequest {
  const value = parseJson(text);
  if (Array.isArray(value))
    throw parseError("cannot unmarshal array into a request object (no batches over WebSocket)");
  return requestFromValue(value);
}
