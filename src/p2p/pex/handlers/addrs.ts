// Addresses from a peer: only as the answer to our outstanding request (else abuse); an
// unparsable IP or port is abuse too; each good address goes into the book with the peer as
// its source; addresses from a configured seed are dialled at once.

import { isIP } from "node:net";
import { addAddress } from "../../addrbook/book.js";
import { isValidNodeId, type NetAddress, normaliseIp } from "../../net-address.js";
import { randomFrom } from "../../switch/random.js";
import type { PexEffect } from "../effect.js";
import type { PexInput } from "../input.js";
import type { PexState } from "../state.js";
import { punish } from "./punish.js";
import type { PexResult } from "./result.js";

export function onAddrsReceived(
  state: PexState,
  input: Extract<PexInput, { type: "PexAddrsReceived" }>,
): PexResult {
  const peer = state.peers.get(input.from);
  if (peer === undefined) return { state, effects: [] };
  if (!state.requestsSent.has(input.from))
    return punish(state, input.from, "peer sent addresses we did not ask for", input.time);
  const requestsSent = new Set(state.requestsSent);
  requestsSent.delete(input.from);
  const parsed: NetAddress[] = [];
  for (const a of input.addrs) {
    if (isIP(a.ip) === 0)
      return punish(
        { ...state, requestsSent },
        input.from,
        `peer sent an address with a bad IP ${JSON.stringify(a.ip)}`,
        input.time,
      );
    if (!Number.isInteger(a.port) || a.port < 0 || a.port > 65535)
      return punish(
        { ...state, requestsSent },
        input.from,
        `peer sent an address with a bad port ${a.port}`,
        input.time,
      );
    parsed.push({ id: a.id, ip: normaliseIp(a.ip), port: a.port });
  }
  const random = randomFrom(input.seed);
  const src: NetAddress = peer.address ?? { id: peer.id, ip: "0.0.0.0", port: 0 };
  let book = state.book;
  let added = 0;
  const toDial: NetAddress[] = [];
  for (const addr of parsed) {
    // invalid ids, banned, private, ourselves, unroutable under strict: skipped quietly, as in v0.34
    if (!isValidNodeId(addr.id)) continue;
    const r = addAddress(book, addr, src, input.time, random);
    book = r.book;
    if (r.added) added++;
    if (addr.id !== state.config.ourId && !book.ours.has(addr.id)) toDial.push(addr);
  }
  const fromSeed = state.config.seeds.some((s) => s.id === input.from);
  const effects: PexEffect[] = [
    {
      type: "PexNoted",
      level: "debug",
      message: "received addresses",
      fields: { peer: input.from, count: parsed.length, added },
    },
  ];
  if (fromSeed && toDial.length > 0)
    effects.push({ type: "DialAddresses", addresses: toDial, reason: "learned from a seed" });
  return { state: { ...state, book, requestsSent, dirty: state.dirty || added > 0 }, effects };
}
