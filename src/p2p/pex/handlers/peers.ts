// Peers coming and going, and addresses an operator gave. An outbound peer is asked for
// addresses while the book is short (a seed always asks: that is its crawl); an inbound peer's
// self-reported address goes into the book.
import { addAddress, markAttempt, markBad, markGood, needsMoreAddresses } from "../../addrbook/book.js";
import { dialString } from "../../net-address.js";
import { randomFrom } from "../../switch/random.js";
import type { PexEffect } from "../effect.js";
import type { PexInput } from "../input.js";
import type { PexState } from "../state.js";
import type { PexResult } from "./result.js";

/** v0.34: a non-persistent book address is banned instead of dialled after this many failures */
export const MAX_ATTEMPTS_TO_DIAL = 16;

export function requestAddrs(state: PexState, id: string): PexResult {
  if (state.requestsSent.has(id)) return { state, effects: [] };
  return {
    state: { ...state, requestsSent: new Set(state.requestsSent).add(id) },
    effects: [{ type: "SendPexRequest", to: id }],
  };
}

export function onPeerAdded(state: PexState, input: Extract<PexInput, { type: "PexPeerAdded" }>): PexResult {
  const peers = new Map(state.peers).set(input.peer.id, input.peer);
  let next: PexState = { ...state, peers };
  if (input.peer.outbound) {
    if (needsMoreAddresses(next.book) || next.config.seedMode) return requestAddrs(next, input.peer.id);
    return { state: next, effects: [] };
  }
  if (input.peer.address) {
    const r = addAddress(
      next.book,
      input.peer.address,
      input.peer.address,
      input.time,
      randomFrom(input.seed),
    );
    next = { ...next, book: r.book, dirty: next.dirty || r.added };
  }
  return { state: next, effects: [] };
}

export function onPeerRemoved(
  state: PexState,
  input: Extract<PexInput, { type: "PexPeerRemoved" }>,
): PexResult {
  if (!state.peers.has(input.id)) return { state, effects: [] };
  const peers = new Map(state.peers);
  peers.delete(input.id);
  const requestsSent = new Set(state.requestsSent);
  requestsSent.delete(input.id);
  // a seed remembers whom it answered (lastRequest) so a reconnecting peer is not served twice at once
  const lastRequest = new Map(state.lastRequest);
  if (!state.config.seedMode) lastRequest.delete(input.id);
  return { state: { ...state, peers, requestsSent, lastRequest }, effects: [] };
}

export function onAddressesGiven(
  state: PexState,
  input: Extract<PexInput, { type: "PexAddressesGiven" }>,
): PexResult {
  const random = randomFrom(input.seed);
  let book = state.book;
  let added = 0;
  for (const a of input.addresses) {
    const r = addAddress(book, a, input.ours ?? a, input.time, random);
    book = r.book;
    if (r.added) added++;
  }
  const effects: PexEffect[] = added > 0 ? [{ type: "SaveAddrBook", book }] : [];
  return { state: { ...state, book, dirty: added > 0 ? false : state.dirty }, effects };
}

export function onDialFailed(
  state: PexState,
  input: Extract<PexInput, { type: "PexDialFailed" }>,
): PexResult {
  const key = dialString(input.address);
  const before = state.dialAttempts.get(key);
  const dialAttempts = new Map(state.dialAttempts).set(key, {
    attempts: (before?.attempts ?? 0) + 1,
    lastDialed: input.time,
  });
  return {
    state: {
      ...state,
      dialAttempts,
      book: markAttempt(state.book, input.address.id, input.time),
      dirty: true,
    },
    effects: [],
  };
}

export function onDialSucceeded(
  state: PexState,
  input: Extract<PexInput, { type: "PexDialSucceeded" }>,
): PexResult {
  const key = dialString(input.address);
  if (!state.dialAttempts.has(key)) return { state, effects: [] };
  const dialAttempts = new Map(state.dialAttempts);
  dialAttempts.delete(key);
  return { state: { ...state, dialAttempts }, effects: [] };
}

export function onMarkedGood(
  state: PexState,
  input: Extract<PexInput, { type: "PexPeerMarkedGood" }>,
): PexResult {
  const book = markGood(state.book, input.id, input.time);
  return { state: { ...state, book, dirty: state.dirty || book !== state.book }, effects: [] };
}

/**
 * Whether a book address may be dialled now (v0.34's dialPeer): after `attempts` failures wait
 * 2^attempts s + 0–1 s since the last dial; past 16 failures a non-persistent address is banned.
 */
export function dialVerdict(
  state: PexState,
  address: import("../../net-address.js").NetAddress,
  persistent: boolean,
  now: number,
  random: () => number,
): { dial: boolean; state: PexState; effects: PexEffect[] } {
  const info = state.dialAttempts.get(dialString(address));
  if (info === undefined) return { dial: true, state, effects: [] };
  if (!persistent && info.attempts > MAX_ATTEMPTS_TO_DIAL) {
    const book = markBad(state.book, address, now);
    const dialAttempts = new Map(state.dialAttempts);
    dialAttempts.delete(dialString(address));
    return {
      dial: false,
      state: { ...state, book, dialAttempts, dirty: true },
      effects: [
        {
          type: "PexNoted",
          level: "info",
          message: "banned an address after too many failed dials",
          fields: { address: dialString(address), attempts: info.attempts },
        },
      ],
    };
  }
  const backoff = 2 ** info.attempts * 1000 + Math.floor(random() * 1000);
  return { dial: now - info.lastDialed >= backoff, state, effects: [] };
}
