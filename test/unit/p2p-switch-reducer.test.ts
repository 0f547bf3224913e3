// The switch reducer on virtual time: the dial schedule at start, v0.34's persistent-peer backoff
// (and persistent_peers_max_dial_period), the inbound limits, unconditional ids, duplicate IPs and
// ids, stalled handshakes cut at their deadline, and a flood of 1,000 connections bounded.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NetAddress } from "../../src/p2p/net-address.js";
import {
  initialSwitchState,
  type SwitchConfig,
  type SwitchEffect,
  type SwitchInput,
  type SwitchState,
  switchReducer,
} from "../../src/p2p/switch/index.js";

const id = (n: number) => n.toString(16).padStart(40, "0");
const OUR = id(0x50);
const addr = (n: number, ip = `10.0.0.${n}`): NetAddress => ({ id: id(n), ip, port: 26656 });

function config(over: Partial<SwitchConfig> = {}): SwitchConfig {
  return {
    ourId: OUR,
    maxInbound: 40,
    maxOutbound: 10,
    unconditionalIds: new Set(),
    allowDuplicateIp: false,
    handshakeTimeoutMs: 20_000,
    dialTimeoutMs: 3_000,
    persistentMaxDialPeriodMs: 0,
    ...over,
  };
}

/** Drives the reducer and keeps every effect with the time it came out. */
class Sim {
  state: SwitchState;
  log: { time: number; effect: SwitchEffect }[] = [];
  seed = 1;
  constructor(cfg: SwitchConfig) {
    this.state = initialSwitchState(cfg);
  }
  feed(input: SwitchInput): SwitchEffect[] {
    const r = switchReducer(this.state, input);
    this.state = r.state;
    for (const effect of r.effects) this.log.push({ time: input.time, effect });
    return r.effects;
  }
  /** Ticks every 100 ms of virtual time up to `until`, failing each dial `fail` says to. */
  run(until: number, onDial?: (e: Extract<SwitchEffect, { type: "Dial" }>, time: number) => void): void {
    for (let t = this.state.time + 100; t <= until; t += 100) {
      for (const e of this.feed({ type: "SwitchTicked", time: t, seed: this.seed++ }))
        if (e.type === "Dial") onDial?.(e, t);
    }
  }
  dials() {
    return this.log.filter((l) => l.effect.type === "Dial") as {
      time: number;
      effect: Extract<SwitchEffect, { type: "Dial" }>;
    }[];
  }
}

test("persistent peers are dialled at start, each within 0-3 s, not before", () => {
  const sim = new Sim(config());
  sim.feed({
    type: "SwitchStarted",
    time: 0,
    seed: 7,
    persistentPeers: [addr(1), addr(2), addr(3), { ...addr(4), id: OUR }],
  });
  assert.equal(sim.log.length, 0);
  sim.run(3_000);
  const dials = sim.dials();
  assert.deepEqual(dials.map((d) => d.effect.address.id).sort(), [id(1), id(2), id(3)]);
  for (const d of dials) {
    assert.ok(d.time <= 3_000);
    assert.equal(d.effect.persistent, true);
    assert.equal(d.effect.dialTimeoutMs, 3_000);
  }
});

test("a persistent peer that never answers follows v0.34's schedule, then is given up", () => {
  const sim = new Sim(config());
  sim.feed({ type: "SwitchStarted", time: 0, seed: 3, persistentPeers: [addr(1)] });
  const failAt: { time: number; connId: string }[] = [];
  // every dial fails 50 ms later (connection refused)
  let horizon = 0;
  while (horizon < 200_000_000) {
    horizon = sim.state.time + 100;
    for (const e of sim.feed({ type: "SwitchTicked", time: horizon, seed: sim.seed++ })) {
      if (e.type === "Dial") failAt.push({ time: horizon, connId: e.connId });
    }
    const last = failAt.at(-1);
    if (last && sim.state.pending.has(last.connId)) {
      sim.feed({
        type: "ConnectionFailed",
        time: horizon + 50,
        seed: sim.seed++,
        connId: last.connId,
        reason: "refused",
      });
    }
    if (sim.log.some((l) => l.effect.type === "RedialAbandoned")) break;
    // jump to the next due dial instead of ticking through hours
    const next = sim.state.persistent.get(id(1))?.nextDialAt;
    if (next !== undefined && next > horizon + 100) sim.state = { ...sim.state, time: next - 100 };
  }
  const gaps = failAt.slice(1).map((f, i) => f.time - failAt[i]!.time - 50);
  assert.equal(failAt.length, 30, "20 + 10 attempts");
  for (let i = 0; i < 19; i++)
    assert.ok(gaps[i]! >= 5_000 && gaps[i]! < 8_100, `phase 1 gap ${i}: ${gaps[i]}`);
  assert.ok(gaps[19]! >= 6_000 && gaps[19]! < 12_100, `into phase 2: ${gaps[19]}`);
  for (let i = 1; i < 10; i++) {
    const base = 3 ** i * 1000;
    assert.ok(gaps[19 + i]! >= base && gaps[19 + i]! < base + 3_100, `phase 2 gap ${i}: ${gaps[19 + i]}`);
  }
  const abandoned = sim.log.find((l) => l.effect.type === "RedialAbandoned")!.effect as Extract<
    SwitchEffect,
    { type: "RedialAbandoned" }
  >;
  assert.equal(abandoned.failures, 30);
});

test("persistent_peers_max_dial_period caps every wait and never gives up", () => {
  const sim = new Sim(config({ persistentMaxDialPeriodMs: 10_000 }));
  sim.feed({ type: "SwitchStarted", time: 0, seed: 3, persistentPeers: [addr(1)] });
  let dials = 0;
  for (let t = 100; dials < 60; t += 100) {
    for (const e of sim.feed({ type: "SwitchTicked", time: t, seed: sim.seed++ })) {
      if (e.type !== "Dial") continue;
      dials++;
      sim.feed({ type: "ConnectionFailed", time: t, seed: sim.seed++, connId: e.connId, reason: "refused" });
    }
  }
  const scheduled = sim.log
    .filter((l) => l.effect.type === "RedialScheduled")
    .map((l) => (l.effect as { delayMs: number }).delayMs);
  assert.ok(scheduled.length >= 59);
  assert.ok(scheduled.every((d) => d <= 10_000));
  assert.equal(
    sim.log.some((l) => l.effect.type === "RedialAbandoned"),
    false,
  );
});

function connect(sim: Sim, a: NetAddress, time: number): string {
  sim.feed({
    type: "DialRequested",
    time,
    seed: 1,
    addresses: [a],
    spread: false,
    persistent: false,
    unconditional: false,
  });
  const dial = sim.dials().at(-1)!.effect;
  sim.feed({
    type: "ConnectionUpgraded",
    time,
    connId: dial.connId,
    id: a.id,
    ip: a.ip,
    port: a.port,
    listenAddress: a,
  });
  return dial.connId;
}

test("a lost persistent peer is redialled at once; one we stopped on purpose is not", () => {
  const sim = new Sim(config());
  sim.feed({ type: "SwitchStarted", time: 0, seed: 1, persistentPeers: [addr(1), addr(2)] });
  const conns = new Map<string, string>();
  sim.run(3_000, (e, t) => {
    conns.set(e.address.id, e.connId);
    sim.feed({
      type: "ConnectionUpgraded",
      time: t,
      connId: e.connId,
      id: e.address.id,
      ip: e.address.ip,
      port: 26656,
      listenAddress: e.address,
    });
  });
  assert.equal(sim.state.peers.size, 2);
  assert.equal(sim.state.peers.get(id(1))!.persistent, true);
  const before = sim.dials().length;
  sim.feed({
    type: "PeerDisconnected",
    time: 5_000,
    seed: 9,
    id: id(1),
    connId: conns.get(id(1))!,
    reason: "EOF",
    error: true,
  });
  sim.feed({
    type: "PeerDisconnected",
    time: 5_000,
    seed: 9,
    id: id(2),
    connId: conns.get(id(2))!,
    reason: "seed hang-up",
    error: false,
  });
  sim.run(5_200);
  const after = sim.dials().slice(before);
  assert.deepEqual(
    after.map((d) => d.effect.address.id),
    [id(1)],
  );
  assert.equal(after[0]!.time, 5_100);
});

test("the inbound limit refuses the next inbound peer; unconditional ids pass and are not counted", () => {
  // the listener holds max + 2 unconditional = 4 sockets; the admission rule refuses the third counted peer
  const sim = new Sim(config({ maxInbound: 2, unconditionalIds: new Set([id(9), id(10)]) }));
  const inbound = (n: number, t: number) => {
    sim.feed({ type: "InboundConnected", time: t, connId: `a${n}`, ip: `10.0.1.${n}`, port: 4000 });
    return sim.feed({
      type: "ConnectionUpgraded",
      time: t,
      connId: `a${n}`,
      id: id(n),
      ip: `10.0.1.${n}`,
      port: 4000,
      listenAddress: undefined,
    });
  };
  assert.equal(inbound(1, 1)[0]!.type, "AdmitPeer");
  assert.equal(inbound(9, 2)[0]!.type, "AdmitPeer");
  assert.equal(inbound(2, 3)[0]!.type, "AdmitPeer");
  const refused = inbound(3, 4);
  assert.equal(refused[0]!.type, "CloseConnection");
  assert.match((refused[0] as { reason: string }).reason, /max_num_inbound_peers = 2/);
  assert.equal(sim.state.peers.size, 3);
  // now 3 inbound sockets are peers and one slot is left for the listener: a 5th socket is closed unhandshaken
  sim.feed({ type: "InboundConnected", time: 5, connId: "a4", ip: "10.0.1.4", port: 4000 });
  const flood = sim.feed({ type: "InboundConnected", time: 5, connId: "a5", ip: "10.0.1.5", port: 4000 });
  assert.match((flood[0] as { reason: string }).reason, /too many inbound connections \(limit 4\)/);
});

test("1,000 connections opened at once: only the limit's worth is handshaken, the rest closed at once", () => {
  const sim = new Sim(
    config({ maxInbound: 40, allowDuplicateIp: true, unconditionalIds: new Set([id(1), id(2)]) }),
  );
  let upgrades = 0;
  let closes = 0;
  for (let i = 0; i < 1000; i++) {
    for (const e of sim.feed({
      type: "InboundConnected",
      time: 1,
      connId: `a${i}`,
      ip: "127.0.0.1",
      port: 1000 + i,
    })) {
      if (e.type === "UpgradeInbound") upgrades++;
      if (e.type === "CloseConnection") closes++;
    }
  }
  assert.equal(upgrades, 42);
  assert.equal(closes, 958);
  assert.equal(sim.state.pending.size, 42);
  // none finishes its handshake: all are cut at the deadline, and the slots free up
  sim.run(20_100);
  assert.equal(sim.state.pending.size, 0);
  const cut = sim.log.filter(
    (l) =>
      l.effect.type === "CloseConnection" &&
      /handshake timed out/.test((l.effect as { reason: string }).reason),
  );
  assert.equal(cut.length, 42);
  assert.ok(
    cut.every((c) => c.time === 20_100 || c.time === 20_001 || (c.time > 20_000 && c.time <= 20_100)),
  );
});

test("a peer that stalls its handshake is cut at handshake_timeout, not before", () => {
  const sim = new Sim(config({ handshakeTimeoutMs: 5_000 }));
  sim.feed({ type: "InboundConnected", time: 1_000, connId: "a1", ip: "10.0.0.1", port: 1 });
  sim.run(5_900);
  assert.equal(sim.state.pending.size, 1);
  sim.run(6_000);
  assert.equal(sim.state.pending.size, 0);
  assert.deepEqual(sim.log.at(-1)!.effect, {
    type: "CloseConnection",
    connId: "a1",
    reason: "handshake timed out",
  });
  // a late finish is closed, never admitted
  const late = sim.feed({
    type: "ConnectionUpgraded",
    time: 6_100,
    connId: "a1",
    id: id(1),
    ip: "10.0.0.1",
    port: 1,
    listenAddress: undefined,
  });
  assert.equal(late[0]!.type, "CloseConnection");
  assert.equal(sim.state.peers.size, 0);
});

test("a dial that hangs is cut at dial_timeout + handshake_timeout and counts as a failure", () => {
  const sim = new Sim(config({ dialTimeoutMs: 1_000, handshakeTimeoutMs: 3_000 }));
  sim.feed({ type: "SwitchStarted", time: 0, seed: 5, persistentPeers: [addr(1)] });
  sim.run(3_000);
  const dialAt = sim.dials()[0]!.time;
  sim.run(dialAt + 4_000);
  assert.equal(sim.state.pending.size, 0);
  assert.equal(sim.state.persistent.get(id(1))!.failures, 1);
  assert.ok(sim.log.some((l) => l.effect.type === "RedialScheduled"));
});

test("duplicate IPs are refused unless allow_duplicate_ip", () => {
  const strict = new Sim(config());
  connect(strict, addr(1, "10.9.9.9"), 1);
  const second = strict.feed({ type: "InboundConnected", time: 2, connId: "a1", ip: "10.9.9.9", port: 5 });
  assert.equal(second[0]!.type, "CloseConnection");
  strict.feed({
    type: "DialRequested",
    time: 3,
    seed: 1,
    addresses: [addr(2, "10.9.9.9")],
    spread: false,
    persistent: false,
    unconditional: false,
  });
  assert.equal(strict.dials().length, 1, "no dial to an IP already connected");
  const lax = new Sim(config({ allowDuplicateIp: true }));
  connect(lax, addr(1, "10.9.9.9"), 1);
  assert.equal(
    lax.feed({ type: "InboundConnected", time: 2, connId: "a1", ip: "10.9.9.9", port: 5 })[0]!.type,
    "UpgradeInbound",
  );
});

test("a duplicate id is refused, and simultaneous dials keep the connection the lower id dialled", () => {
  const sim = new Sim(config({ allowDuplicateIp: true }));
  connect(sim, addr(1), 1);
  sim.feed({ type: "InboundConnected", time: 2, connId: "a1", ip: "10.0.0.1", port: 5 });
  const dup = sim.feed({
    type: "ConnectionUpgraded",
    time: 2,
    connId: "a1",
    id: id(1),
    ip: "10.0.0.1",
    port: 5,
    listenAddress: undefined,
  });
  // id(1) < OUR, so the peer's dial (inbound to us) wins over ours: ours is replaced
  assert.deepEqual(
    dup.map((e) => e.type),
    ["DisconnectPeer", "AdmitPeer"],
  );
  assert.equal(sim.state.peers.get(id(1))!.connId, "a1");
  // a higher id: our outbound connection wins, its inbound one is refused
  connect(sim, addr(0x99), 3);
  sim.feed({ type: "InboundConnected", time: 4, connId: "a2", ip: "10.0.0.1", port: 6 });
  const refused = sim.feed({
    type: "ConnectionUpgraded",
    time: 4,
    connId: "a2",
    id: id(0x99),
    ip: "10.0.0.1",
    port: 6,
    listenAddress: undefined,
  });
  assert.deepEqual(
    refused.map((e) => e.type),
    ["CloseConnection"],
  );
  assert.match((refused[0] as { reason: string }).reason, /duplicate peer id/);
});

test("dial_peers with persistent replaces the persistent list and spreads dials over 0-3 s", () => {
  const sim = new Sim(config({ allowDuplicateIp: true }));
  sim.feed({ type: "SwitchStarted", time: 0, seed: 1, persistentPeers: [addr(1)] });
  sim.feed({
    type: "DialRequested",
    time: 0,
    seed: 2,
    addresses: [addr(2), addr(3)],
    spread: true,
    persistent: true,
    unconditional: true,
  });
  assert.deepEqual([...sim.state.persistent.keys()].sort(), [id(2), id(3)]);
  assert.ok(sim.state.config.unconditionalIds.has(id(2)));
  sim.run(3_100);
  const dialled = sim
    .dials()
    .map((d) => d.effect.address.id)
    .sort();
  assert.deepEqual(dialled, [id(2), id(3)]);
});

test("the same inputs give the same effects (replay)", () => {
  const run = () => {
    const sim = new Sim(config());
    sim.feed({ type: "SwitchStarted", time: 0, seed: 42, persistentPeers: [addr(1), addr(2), addr(3)] });
    sim.run(60_000, (e, t) =>
      sim.feed({ type: "ConnectionFailed", time: t, seed: 11, connId: e.connId, reason: "refused" }),
    );
    return JSON.stringify(sim.log);
  };
  assert.equal(run(), run());
});

test("a PEX or dial_peers peer (not persistent) is not redialled by the switch when lost or when its dial fails", () => {
  const sim = new Sim(config());
  const connId = connect(sim, addr(1), 1);
  assert.equal(sim.state.peers.get(id(1))!.persistent, false);
  sim.feed({ type: "PeerDisconnected", time: 2, seed: 1, id: id(1), connId, reason: "EOF", error: true });
  sim.feed({
    type: "DialRequested",
    time: 3,
    seed: 1,
    addresses: [addr(2)],
    spread: false,
    persistent: false,
    unconditional: false,
  });
  const dial = sim.dials().at(-1)!.effect;
  sim.feed({ type: "ConnectionFailed", time: 4, seed: 1, connId: dial.connId, reason: "refused" });
  sim.run(600_000);
  assert.equal(sim.dials().length, 2, "no redial: the address book's dialler (PEX) decides about these");
  assert.equal(
    sim.log.some((l) => l.effect.type === "RedialScheduled"),
    false,
  );
});
