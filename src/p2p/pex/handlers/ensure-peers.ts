// The ensure-peers tick (v0.34's ensurePeers, every 30 s): dial book addresses until outbound +
// dialling reaches max_num_outbound_peers, biased to new addresses while we have few peers; while
// the book is short, lift expired bans, ask one random peer for addresses, and dial a seed when
// nothing else was picked. A seed crawls instead: it asks every address it has not asked in the
// last 2 minutes, forgets crawls older than a day, and hangs up on peers connected for 28 h.
import { getSelection, needsMoreAddresses, pickAddress, reinstateExpiredBans } from "../../addrbook/book.js";
import type { NetAddress } from "../../net-address.js";
import { randomFrom } from "../../switch/random.js";
import type { PexEffect } from "../effect.js";
import type { PexInput } from "../input.js";
import type { PexState } from "../state.js";
import { dialVerdict, requestAddrs } from "./peers.js";
import type { PexResult } from "./result.js";

type Tick = Extract<PexInput, { type: "PexEnsurePeersTicked" }>;

export const CRAWL_INTERVAL_MS = 2 * 60 * 1000;
/** a seed hangs up on non-persistent peers connected this long (v0.34's node.go sets 28 h) */
export const SEED_DISCONNECT_WAIT_MS = 28 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export function onEnsurePeersTicked(state: PexState, input: Tick): PexResult {
  return state.config.seedMode ? crawl(state, input) : ensurePeers(state, input);
}

function ensurePeers(state: PexState, input: Tick): PexResult {
  const random = randomFrom(input.seed);
  const connected = new Set(input.connectedIds);
  const effects: PexEffect[] = [];
  let next = state;
  const numToDial = state.config.maxOutbound - (input.outbound + input.dialing);
  const toDial = new Map<string, NetAddress>();
  if (numToDial > 0) {
    const biasNew = Math.min(input.outbound, 8) * 10 + 10;
    for (let i = 0; i < numToDial * 3 && toDial.size < numToDial; i++) {
      const candidate = pickAddress(next.book, biasNew, random);
      if (!candidate || toDial.has(candidate.id) || connected.has(candidate.id)) continue;
      if (candidate.id === state.config.ourId) continue;
      const verdict = dialVerdict(next, candidate, false, input.time, random);
      next = verdict.state;
      effects.push(...verdict.effects);
      if (verdict.dial) toDial.set(candidate.id, candidate);
    }
  }
  if (toDial.size > 0)
    effects.push({ type: "DialAddresses", addresses: [...toDial.values()], reason: "ensure peers" });
  if (needsMoreAddresses(next.book)) {
    const book = reinstateExpiredBans(next.book, input.time, random);
    next = { ...next, book, dirty: next.dirty || book !== next.book };
    const peers = [...next.peers.keys()];
    if (peers.length > 0) {
      const r = requestAddrs(next, peers[Math.floor(random() * peers.length)]!);
      next = r.state;
      effects.push(...r.effects);
    }
    if (toDial.size === 0) {
      const seeds = next.config.seeds.filter((s) => !connected.has(s.id) && s.id !== state.config.ourId);
      if (seeds.length > 0) {
        const seed = seeds[Math.floor(random() * seeds.length)]!;
        effects.push({
          type: "DialAddresses",
          addresses: [seed],
          reason: "the address book is short: dialling a seed",
        });
      }
    }
  }
  return { state: next, effects };
}

function crawl(state: PexState, input: Tick): PexResult {
  const random = randomFrom(input.seed);
  const connected = new Set(input.connectedIds);
  const effects: PexEffect[] = [];
  const crawled = new Map(state.crawled);
  for (const [id, at] of crawled) if (input.time - at > DAY_MS) crawled.delete(id);
  let next: PexState = { ...state, crawled };
  for (const peer of state.peers.values()) {
    if (!peer.persistent && input.time - peer.addedAt >= SEED_DISCONNECT_WAIT_MS)
      effects.push({ type: "StopPeer", id: peer.id, reason: "seed mode: connected for 28h", error: false });
  }
  if (next.book.addrs.size === 0) {
    const seeds = next.config.seeds.filter((s) => !connected.has(s.id));
    if (seeds.length > 0)
      effects.push({
        type: "DialAddresses",
        addresses: seeds,
        reason: "seed mode: dialling seeds to start crawling",
      });
    return { state: next, effects };
  }
  const room = Math.max(0, state.config.maxOutbound - (input.outbound + input.dialing));
  const toDial: NetAddress[] = [];
  for (const addr of getSelection(next.book, random)) {
    const last = crawled.get(addr.id);
    if (last !== undefined && input.time - last < CRAWL_INTERVAL_MS) continue;
    if (connected.has(addr.id)) {
      crawled.set(addr.id, input.time);
      const r = requestAddrs(next, addr.id);
      next = r.state;
      effects.push(...r.effects);
    } else if (toDial.length < room) {
      crawled.set(addr.id, input.time);
      toDial.push(addr);
    }
  }
  if (toDial.length > 0)
    effects.push({ type: "DialAddresses", addresses: toDial, reason: "seed mode: crawling" });
  return { state: next, effects };
}
