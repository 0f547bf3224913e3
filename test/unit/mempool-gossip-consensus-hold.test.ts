// The mempool gossip's hold while our round 0 is decided (src/mempool-gossip/consensus-hold.ts):
// which consensus states hold it, and the reactor's sends waiting for the hold's end or its cap.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Subject } from "rxjs";
import { RoundStep } from "../../src/consensus/round-step.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import { createLogger } from "../../src/logger/index.js";
import { holdsMempoolGossip, MAX_GOSSIP_HOLD_MS } from "../../src/mempool-gossip/consensus-hold.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { startMempoolGossipReactor } from "../../streams/reactors/mempool-gossip.js";
import { fakePeerLayer } from "./fake-peer-layer.js";
import { TEST_MEMPOOL_GOSSIP_CONFIG, testMempoolNode } from "./mempool-node-fixture.js";

const tick = () => new Promise((r) => setImmediate(r));
const text = (s: string) => new TextEncoder().encode(s);
const at = (round: number, step: RoundStep, started = true) =>
  ({ started, round, step }) as unknown as ConsensusState;

test("the hold covers round 0 from Propose to PrecommitWait, nothing else", () => {
  const held = [
    RoundStep.Propose,
    RoundStep.Prevote,
    RoundStep.PrevoteWait,
    RoundStep.Precommit,
    RoundStep.PrecommitWait,
  ];
  for (const step of held) assert.equal(holdsMempoolGossip(at(0, step)), true, `round 0 step ${step}`);
  for (const step of [RoundStep.NewHeight, RoundStep.NewRound, RoundStep.Commit])
    assert.equal(holdsMempoolGossip(at(0, step)), false, `round 0 step ${step}`);
  assert.equal(holdsMempoolGossip(at(1, RoundStep.Prevote)), false, "a later round is not held");
  assert.equal(holdsMempoolGossip(at(0, RoundStep.Prevote, false)), false, "consensus not started");
});

function setUp() {
  const { layer, messages, sent, add } = fakePeerLayer([CHANNEL_MEMPOOL], () =>
    assert.fail("no peer is at fault here"),
  );
  const mempool = testMempoolNode();
  const running = mempool.start();
  const consensus$ = new Subject<ConsensusState>();
  const reactor = startMempoolGossipReactor(layer, {
    mempool,
    config: TEST_MEMPOOL_GOSSIP_CONFIG,
    consensus$,
    logger: createLogger({ level: "none" }),
    onFault: (f) => assert.fail(f.reason),
  });
  for (const peer of ["A", "D"]) add(peer);
  const from = (peerId: string, tx: string) =>
    messages.next({ peerId, channelId: CHANNEL_MEMPOOL, bytes: encodeMempoolTx(text(tx)) });
  const stop = () => {
    reactor.stop();
    running.unsubscribe();
  };
  return { sent, consensus$, from, stop };
}

test("a tx admitted while round 0 is decided goes to the peers once the block is committed", async () => {
  const { sent, consensus$, from, stop } = setUp();
  consensus$.next(at(0, RoundStep.Propose));
  from("A", "k=v");
  for (let i = 0; i < 5; i++) await tick();
  assert.equal(sent.length, 0, "held while round 0 is decided");
  consensus$.next(at(0, RoundStep.Prevote));
  await tick();
  assert.equal(sent.length, 0, "still held at the next step");
  consensus$.next(at(0, RoundStep.Commit));
  for (let i = 0; i < 3; i++) await tick();
  assert.deepEqual(
    sent.map((s) => s.peerId),
    ["D"],
    "sent at the commit, to the peer that did not send it",
  );
  stop();
});

test("a hold that lasts too long lets the txs go at its cap", async () => {
  const { sent, consensus$, from, stop } = setUp();
  consensus$.next(at(0, RoundStep.Propose));
  from("A", "k=v");
  await new Promise((r) => setTimeout(r, MAX_GOSSIP_HOLD_MS / 2));
  assert.equal(sent.length, 0, "held before the cap");
  await new Promise((r) => setTimeout(r, MAX_GOSSIP_HOLD_MS / 2 + 100));
  assert.deepEqual(
    sent.map((s) => s.peerId),
    ["D"],
    "sent once the cap passed, consensus still in round 0",
  );
  stop();
});

test("outside a hold a tx goes at once", async () => {
  const { sent, consensus$, from, stop } = setUp();
  consensus$.next(at(0, RoundStep.NewHeight));
  from("A", "k=v");
  for (let i = 0; i < 3; i++) await tick();
  assert.deepEqual(
    sent.map((s) => s.peerId),
    ["D"],
  );
  stop();
});
