// The server's ResultEncoders for rpc.compat = "seed" and "tendermint": the JSON encoders of
// src/wire/json, plus the server's RawJson results (already JSON) passed through unchanged.
import { RawJson, type ResultEncoder } from "../../src/rpc/encoder.js";
import type { RpcCompat } from "../../src/rpc/options.js";
import { createJsonEncoder, eventDataTypeName, type JsonFormEncoder } from "../../src/wire/json/index.js";

export function toResultEncoder(json: JsonFormEncoder): ResultEncoder {
  return {
    encodeResult(route, result) {
      return result instanceof RawJson ? result.json : json.encodeResult(route, result);
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
