// The RPC's result JSON in its two forms (docs/rpc.md, reference rpc-forms.md): one domain
// result per route (result-types.ts), written by the "seed" or the "tendermint" encoder.
// Importers outside src/wire adapt JsonFormEncoder to the server's ResultEncoder.

import { eventValueJson } from "../../rpc/json/json-events.js";
import type { JsonForm } from "../../rpc/json/json-form.js";
import { routeResultJson } from "../../rpc/json/json-results.js";
import { jsonString, jsonText } from "../../rpc/json/json-text.js";

export { eventValueJson } from "../../rpc/json/json-events.js";
export type { JsonForm } from "../../rpc/json/json-form.js";
export { nodeInfoJson, plainJson, routeResultJson } from "../../rpc/json/json-results.js";
export { voteBitArrayString, voteString } from "../../rpc/json/json-round-state.js";
export { compactJson, JsonRaw, type JsonValue, jsonString, jsonText } from "../../rpc/json/json-text.js";
export type * from "../../rpc/json/result-types.js";

export interface JsonFormEncoder {
  readonly form: JsonForm;
  /** The JSON text of a route's result. */
  encodeResult(route: string, result: unknown): string;
  /** The JSON text of an event's `data`: {"type":"tendermint/event/<Kind>","value":…}. */
  encodeEventData(type: string, data: unknown): string;
}

/** v0.34's `data.type` of an event name: the round-state events share one type. */
export function eventDataTypeName(eventName: string): string {
  switch (eventName) {
    case "NewRoundStep":
    case "TimeoutPropose":
    case "TimeoutWait":
    case "Polka":
    case "Lock":
    case "Unlock":
    case "Relock":
    case "ValidBlock":
      return "tendermint/event/RoundState";
    default:
      return `tendermint/event/${eventName}`;
  }
}

export function createJsonEncoder(form: JsonForm): JsonFormEncoder {
  return {
    form,
    encodeResult: (route, result) => jsonText(routeResultJson(route, result, form)),
    encodeEventData: (type, data) =>
      `{"type":${jsonString(eventDataTypeName(type))},"value":${jsonText(eventValueJson(type, data, form))}}`,
  };
}

export const seedJsonEncoder: JsonFormEncoder = createJsonEncoder("seed");
export const tendermintJsonEncoder: JsonFormEncoder = createJsonEncoder("tendermint");
