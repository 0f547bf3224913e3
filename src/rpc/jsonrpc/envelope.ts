// The JSON-RPC response envelope as text (reference §2.1): `{"jsonrpc":"2.0","id":…,"result":…}`
// or `{…,"error":{code,message,data}}`, `id` omitted when there is none. Results arrive as JSON
// text from the encoder and are spliced in, never parsed and written again.

import type { JsonRpcErrorObject } from "../errors.js";

/** A request id as Tendermint keeps it: a string, or an integer (fractions truncated). */
export type JsonRpcId = string | number;

/** The id URI-style calls are answered with. */
export const URI_ID = -1;

// Two regexps: a global one keeps lastIndex between test() calls, so it only replaces.
const HAS_HTML_UNSAFE = /[<>&\u2028\u2029]/;
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const HTML_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** A JSON string as Go's encoding/json writes it (HTML characters escaped). */
export function goJsonString(text: string): string {
  const json = JSON.stringify(text);
  return HAS_HTML_UNSAFE.test(json) ? json.replace(HTML_UNSAFE, (c) => HTML_ESCAPES[c] as string) : json;
}

function idField(id: JsonRpcId | undefined): string {
  if (id === undefined) return "";
  return typeof id === "number" ? `"id":${id},` : `"id":${goJsonString(id)},`;
}

export function successResponse(id: JsonRpcId | undefined, resultJson: string): string {
  return `{"jsonrpc":"2.0",${idField(id)}"result":${resultJson}}`;
}

export function errorResponse(id: JsonRpcId | undefined, error: JsonRpcErrorObject): string {
  const data = error.data === undefined || error.data === "" ? "" : `,"data":${goJsonString(error.data)}`;
  return `{"jsonrpc":"2.0",${idField(id)}"error":{"code":${error.code},"message":${goJsonString(error.message)}${data}}}`;
}

/** Several responses as Tendermint writes them: one alone is an object, more an array. */
export function joinResponses(responses: readonly string[]): string {
  return responses.length === 1 ? (responses[0] as string) : `[${responses.join(",")}]`;
}
