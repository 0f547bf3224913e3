// PEX on virtual time: v0.34's message vectors, the request rate rule and its ban, unsolicited
// and malformed answers, seeds (addresses from a seed dialled at once; a seed answers once and
// hangs up), ensure-peers (outbound room, asking a peer, falling back to a seed), dial backoff
// and the ban after 16 failed dials.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { addAddress, emptyBook } from "../../src/p2p/addrbook/index.js";
import type { NetAddress } from "../../src/p2p/net-address.js";
import {
  decodePexMessage,
  encodePexAddrs,
  encodePexRequest,
  initialPexState,
  type PexConfig,
  type PexEffect,
  type PexInput,
  type PexState,
  pexReducer,
} from "../../src/p2p/pex/index.js";
import { randomFrom } from "../../src/p2p/switch/index.js";

const id = (n: number) => n.toString(16).padStart(40, "0");
const at = (n: number): NetAddress => ({ id: id(n), ip: `8.${(n >> 8) & 255}.${n & 255}.1`, port: 26656 });
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const vectors = JSON.parse(
  readFileSync(new URL("../fixtures/p2p/repo-message-vectors.json", import.meta.url), "utf8"),
) as Record<string, { input: string; hex: string }[]>;

function pex(
  over: Partial<PexConfig> = {},
  bookSize = 0,
): { state: PexState; feed: (i: PexInput) => PexEffect[] } {
  let book = emptyBook("0123456789abcdef01234567", true);
  for (let i = 0; i < bookSize; i++) book = addAddress(book, at(1000 + i), at(1), 0, randomFrom(i)).book;
  const holder = {
    state: initialPexState(
      { ourId: id(0xff), seedMode: false, seeds: [], maxOutbound: 10, ensurePeersPeriodMs: 30_000, ...over },
      book,
    ),
    feed(input: PexInput) {
      const r = pexReducer(holder.state, input);
      holder.state = r.state;
      return r.effects;
    },
  };
  return holder;
}
const peer = (n: number, outbound: boolean) => ({
  id: id(n),
  outbound,
  address: at(n),
  persistent: false,
  addedAt: 0,
});

test("PEX messages encode as v0.34's vectors and decode back; garbage is reported, not thrown", () => {
  const group = vectors["pex (p2p/pex/pex_reactor_test.go TestPexVectors; tendermint.p2p.Message)"]!;
  assert.equal(hex(encodePexRequest()), group[0]!.hex);
  assert.equal(hex(encodePexAddrs([{ id: "1", ip: "127.0.0.1", port: 9090 }])), group[1]!.hex);
  assert.deepEqual(decodePexMessage(Buffer.from(group[1]!.hex, "hex")), {
    kind: "addrs",
    addrs: [{ id: "1", ip: "127.0.0.1", port: 9090 }],
  });
  assert.deepEqual(decodePexMessage(Buffer.from("0a00", "hex")), { kind: "request" });
  assert.equal(decodePexMessage(Buffer.from("ffffff", "hex")).kind, "invalid");
  assert.equal(decodePexMessage(new Uint8Array(0)).kind, "invalid");
  assert.equal(decodePexMessage(new Uint8Array(64_001)).kind, "invalid");
});

test("two requests are always answered; a third within 10 s stops the peer and bans a known id", () => {
  const p = pex({}, 40);
  p.state = { ...p.state, book: addAddress(p.state.book, at(7), at(7), 0, randomFrom(1)).book };
  p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: peer(7, false) });
  const ask = (t: number) => p.feed({ type: "PexRequestReceived", time: t, seed: t, from: id(7) });
  const first = ask(1_000);
  assert.equal(first[0]!.type, "SendPexAddrs");
  assert.equal((first[0] as { addrs: readonly unknown[] }).addrs.length, 32);
  assert.equal(ask(1_100)[0]!.type, "SendPexAddrs");
  assert.equal(ask(11_100)[0]!.type, "SendPexAddrs", "10 s after the last accepted one");
  const abuse = ask(15_000);
  assert.equal(abuse[0]!.type, "StopPeer");
  assert.match((abuse[0] as { reason: string }).reason, /too soon .*banned for 24h/);
  assert.equal(p.state.book.addrs.has(id(7)), false);
  assert.equal(p.state.book.banned.has(id(7)), true);
});

test("unasked addresses and addresses with a bad IP stop the peer", () => {
  const p = pex();
  p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: peer(7, true) });
  // the outbound peer was asked (the book is short); a second answer was not
  p.feed({ type: "PexAddrsReceived", time: 1, seed: 1, from: id(7), addrs: [] });
  const unasked = p.feed({ type: "PexAddrsReceived", time: 2, seed: 1, from: id(7), addrs: [] });
  assert.match((unasked[0] as { reason: string }).reason, /did not ask/);
  const q = pex();
  q.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: peer(8, true) });
  const bad = q.feed({
    type: "PexAddrsReceived",
    time: 1,
    seed: 1,
    from: id(8),
    addrs: [{ id: id(3), ip: "not-an-ip", port: 1 }],
  });
  assert.match((bad[0] as { reason: string }).reason, /bad IP/);
});

test("answers fill the book (bad entries skipped quietly); a seed's answer is dialled at once", () => {
  const p = pex({ seeds: [at(50)] });
  const added = p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: peer(50, true) });
  assert.deepEqual(added, [{ type: "SendPexRequest", to: id(50) }]);
  const effects = p.feed({
    type: "PexAddrsReceived",
    time: 1,
    seed: 1,
    from: id(50),
    addrs: [at(1), at(2), { id: "short", ip: "8.8.8.8", port: 1 }, { id: id(3), ip: "127.0.0.1", port: 1 }],
  });
  assert.equal(p.state.book.addrs.size, 2);
  const dial = effects.find((e) => e.type === "DialAddresses") as Extract<
    PexEffect,
    { type: "DialAddresses" }
  >;
  assert.deepEqual(dial.addresses.map((a) => a.id).slice(0, 2), [id(1), id(2)]);
});

test("a seed answers an inbound peer once, biased to new addresses, then hangs up", () => {
  const p = pex({ seedMode: true }, 100);
  p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: peer(7, false) });
  const answer = p.feed({ type: "PexRequestReceived", time: 1, seed: 1, from: id(7) });
  assert.deepEqual(
    answer.map((e) => e.type),
    ["SendPexAddrs", "StopPeer"],
  );
  assert.equal((answer[1] as { error: boolean }).error, false);
  assert.deepEqual(p.feed({ type: "PexRequestReceived", time: 2, seed: 1, from: id(7) }), []);
  // the inbound peer's own address went into the seed's book
  assert.equal(p.state.book.addrs.has(id(7)), true);
});

test("ensure-peers dials up to the outbound room, asks one peer while the book is short, and falls back to a seed", () => {
  const p = pex({ maxOutbound: 4, seeds: [at(60)] }, 50);
  // an inbound peer without a usable listen address (so the book holds only the 50)
  p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: { ...peer(7, false), address: undefined } });
  const tick = p.feed({
    type: "PexEnsurePeersTicked",
    time: 30_000,
    seed: 9,
    outbound: 1,
    inbound: 1,
    dialing: 1,
    connectedIds: [id(7)],
  });
  const dial = tick.find((e) => e.type === "DialAddresses") as Extract<PexEffect, { type: "DialAddresses" }>;
  assert.equal(dial.addresses.length, 2);
  assert.ok(tick.some((e) => e.type === "SendPexRequest"));
  const empty = pex({ maxOutbound: 4, seeds: [at(60)] });
  const fallback = empty.feed({
    type: "PexEnsurePeersTicked",
    time: 0,
    seed: 9,
    outbound: 0,
    inbound: 0,
    dialing: 0,
    connectedIds: [],
  });
  assert.deepEqual(fallback, [
    { type: "DialAddresses", addresses: [at(60)], reason: "the address book is short: dialling a seed" },
  ]);
  const full = pex({ maxOutbound: 2 }, 50);
  const none = full.feed({
    type: "PexEnsurePeersTicked",
    time: 0,
    seed: 9,
    outbound: 2,
    inbound: 0,
    dialing: 0,
    connectedIds: [],
  });
  assert.equal(
    none.some((e) => e.type === "DialAddresses"),
    false,
  );
});

test("failed book dials back off 2^n s and are banned after 16 failures", () => {
  const p = pex({ maxOutbound: 1 }, 1);
  const target = at(1000);
  for (let i = 0; i < 3; i++) p.feed({ type: "PexDialFailed", time: 1_000, address: target });
  const soon = p.feed({
    type: "PexEnsurePeersTicked",
    time: 8_000,
    seed: 9,
    outbound: 0,
    inbound: 0,
    dialing: 0,
    connectedIds: [],
  });
  assert.equal(
    soon.some((e) => e.type === "DialAddresses" && e.addresses.some((a) => a.id === target.id)),
    false,
    "2^3 s not passed",
  );
  const later = p.feed({
    type: "PexEnsurePeersTicked",
    time: 10_000,
    seed: 9,
    outbound: 0,
    inbound: 0,
    dialing: 0,
    connectedIds: [],
  });
  assert.equal(
    later.some((e) => e.type === "DialAddresses" && e.addresses.some((a) => a.id === target.id)),
    true,
  );
  for (let i = 0; i < 14; i++) p.feed({ type: "PexDialFailed", time: 10_000, address: target });
  const banned = p.feed({
    type: "PexEnsurePeersTicked",
    time: 10_000_000_000,
    seed: 9,
    outbound: 0,
    inbound: 0,
    dialing: 0,
    connectedIds: [],
  });
  assert.ok(banned.some((e) => e.type === "PexNoted" && /banned/.test(e.message)));
  assert.equal(p.state.book.banned.has(target.id), true);
});

test("the book is saved only when it changed", () => {
  const p = pex();
  assert.deepEqual(p.feed({ type: "PexSaveTicked", time: 0 }), []);
  p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: peer(7, false) });
  assert.equal(p.feed({ type: "PexSaveTicked", time: 1 })[0]!.type, "SaveAddrBook");
  assert.deepEqual(p.feed({ type: "PexSaveTicked", time: 2 }), []);
});

test("a seed hangs up on non-persistent peers after 28 h and crawls addresses not asked in 2 minutes", () => {
  const p = pex({ seedMode: true, maxOutbound: 10 }, 5);
  p.feed({ type: "PexPeerAdded", time: 0, seed: 1, peer: { ...peer(7, true), addedAt: 0 } });
  p.feed({
    type: "PexPeerAdded",
    time: 0,
    seed: 1,
    peer: { ...peer(8, true), persistent: true, addedAt: 0 },
  });
  const tick = (t: number) =>
    p.feed({
      type: "PexEnsurePeersTicked",
      time: t,
      seed: 3,
      outbound: 2,
      inbound: 0,
      dialing: 0,
      connectedIds: [id(7), id(8)],
    });
  const first = tick(60_000);
  const crawl = first.find((e) => e.type === "DialAddresses") as Extract<
    PexEffect,
    { type: "DialAddresses" }
  >;
  assert.equal(crawl.addresses.length, 5);
  assert.equal(
    tick(120_000).some((e) => e.type === "DialAddresses"),
    false,
    "crawled less than 2 minutes ago",
  );
  const late = tick(28 * 60 * 60 * 1000);
  const stops = late.filter((e) => e.type === "StopPeer") as Extract<PexEffect, { type: "StopPeer" }>[];
  assert.deepEqual(
    stops.map((s) => s.id),
    [id(7)],
    "the persistent peer stays",
  );
});
