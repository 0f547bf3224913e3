// Requests from peers, answered with a selection of the book, and v0.34's rate rule: the first
// two requests of a peer are always accepted; each later one must come at least a third of the
// ensure-peers period (10 s) after the previous accepted one. A seed answers an inbound peer once
// (biased to 30 % new addresses) and hangs up.
import { getSelection, getSelectionWithBias } from "../../addrbook/book.js";
import { randomFrom } from "../../switch/random.js";
import type { PexInput } from "../input.js";
import type { PexState } from "../state.js";
import { punish } from "./punish.js";
import type { PexResult } from "./result.js";

export const SEED_BIAS_NEW_PERCENT = 30;

export function onRequestReceived(
  state: PexState,
  input: Extract<PexInput, { type: "PexRequestReceived" }>,
): PexResult {
  const peer = state.peers.get(input.from);
  if (peer === undefined) return { state, effects: [] };
  const random = randomFrom(input.seed);
  if (state.config.seedMode && !peer.outbound) {
    if (state.lastRequest.has(input.from)) return { state, effects: [] };
    const lastRequest = new Map(state.lastRequest).set(input.from, input.time);
    return {
      state: { ...state, lastRequest },
      effects: [
        {
          type: "SendPexAddrs",
          to: input.from,
          addrs: getSelectionWithBias(state.book, SEED_BIAS_NEW_PERCENT, random),
        },
        { type: "StopPeer", id: input.from, reason: "seed answered the address request", error: false },
      ],
    };
  }
  const last = state.lastRequest.get(input.from);
  const minInterval = Math.floor(state.config.ensurePeersPeriodMs / 3);
  const lastRequest = new Map(state.lastRequest);
  if (last === undefined) lastRequest.set(input.from, 0);
  else if (last === 0) lastRequest.set(input.from, input.time);
  else if (input.time - last < minInterval) {
    return punish(
      state,
      input.from,
      `peer sent the next PEX request too soon (${input.time - last} ms after the last, minimum ${minInterval} ms)`,
      input.time,
    );
  } else lastRequest.set(input.from, input.time);
  return {
    state: { ...state, lastRequest },
    effects: [{ type: "SendPexAddrs", to: input.from, addrs: getSelection(state.book, random) }],
  };
}
