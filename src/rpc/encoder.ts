// Turning domain results into JSON text. The real encoders (the specification's "seed" form
// and Tendermint's) live in src/wire/json and are injected; this file defines the interface
// the RPC calls, the marker for results that are already JSON, and a pass-through encoder
// (bigint as decimal strings, bytes as base64) for tests and for a node built without them.

import type { RpcEvent } from "./context.js";

export interface ResultEncoder {
  /** The JSON text of a route's result. */
  encodeResult(route: string, result: unknown): string;
  /** The JSON text of an event's `data`: {"type":"tendermint/event/<Kind>","value":…}. */
  encodeEventData(event: RpcEvent): string;
}

/** A result that is already JSON text: spliced into the envelope as it is. */
export class RawJson {
  constructor(readonly json: string) {}
}

/** The `data.type` of each event name (reference §1.5). */
export function eventDataType(eventName: string): string {
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

function plainJson(value: unknown): string {
  return (
    JSON.stringify(value, function replace(this: Record<string, unknown>, key, converted) {
      const raw = this[key];
      if (raw instanceof Uint8Array)
        return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64");
      if (typeof converted === "bigint") return converted.toString();
      return converted;
    }) ?? "null"
  );
}

/** bigint → "123", Uint8Array → base64, everything else as JSON.stringify writes it. */
export const passThroughEncoder: ResultEncoder = {
  encodeResult(_route, result) {
    return result instanceof RawJson ? result.json : plainJson(result);
  },
  encodeEventData(event) {
    const value = event.data instanceof RawJson ? event.data.json : plainJson(event.data);
    return `{"type":${JSON.stringify(eventDataType(event.type))},"value":${value}}`;
  },
};
