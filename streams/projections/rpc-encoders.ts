// The server's ResultEncoders for rpc.compat = "seed" and "tendermint": the JSON encoders of
// src/wire/json, plus the server's RawJson results (already JSON) passed through unchanged.
import { RawJson, type ResultEncoder } from "../../src/rpc/encoder.js";
import { createJsonEncoder, eventDataTypeName, type JsonFormEncoder } from "../../src/rpc/json/index.js";
import type { RpcCompat } from "../../src/rpc/options.js";

/** Routes whose context may hand back the same (immutable) result object while it holds. */
const REUSED_RESULTS = new Set(["health", "status"]);

export function toResultEncoder(json: JsonFormEncoder): ResultEncoder {
  // JSON of result objects seen before, by identity (the objects are never mutated).
  const texts = new WeakMap<object, string>();
  return {
    encodeResult(route, result) {
      if (result instanceof RawJson) return result.json;
      if (!REUSED_RESULTS.has(route) || result === null || typeof result !== "object") {
        return json.encodeResult(route, result);
      }
      let text = texts.get(result);
      if (text === undefined) {
        text = json.encodeResult(route, result);
        texts.set(result, text);
      }
      return text;
    },
    encodeEventData(event) {
      if (event.data instanceof RawJson) {
        return `{"type":${JSON.stringify(eventDataTypeName(event.type))},"value":${event.data.json}}`;
      }
      return json.encodeEventData(event.type, event.data);
    },
  };
}

/** One encoder per form, as startRpcServer takes them (chosen there by rpc.compat). */
export const encoders: Record<RpcCompat, ResultEncoder> = {
  seed: toResultEncoder(createJsonEncoder("seed")),
  tendermint: toResultEncoder(createJsonEncoder("tendermint")),
};
