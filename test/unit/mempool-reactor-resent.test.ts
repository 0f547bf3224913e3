// The mempool reactor turns away a tx a peer sends again (pending, in check, or cached) before the
// mempool's admission: no submission for it, only its sender noted, so the tx is never gossiped
// back to that peer, whether the copy came while the tx was in check or once it was pending.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "../../src/logger/index.js";
import type { MempoolInput } from "../../src/mempool/input.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { startMempoolGossipReactor } from "../../streams/reactors/mempool-gossip.js";
import { fakePeerLayer } from "./fake-peer-layer.js";
import { TEST_MEMPOOL_GOSSIP_CONFIG, testMempoolNode } from "./mempool-node-fixture.js";

const tick = () => new Promise((r) => setImmediate(r));
const text = (s: string) => new TextEncoder().encode(s);

function layerOf() {
  const { layer, messages, sent, add } = fakePeerLayer([CHANNEL_MEMPOOL], () =>
    assert.fail("no peer is at fault here"),
  );
  const from = (peerId: string, tx: string) =>
    messages.next({ peerId, channelId: CHANNEL_MEMPOOL, bytes: encodeMempoolTx(text(tx)) });
  return { layer, sent, add, from };
}

test("a tx a peer sends again is turned away before admission, its sender noted and never sent back", async () => {
  const { layer, sent, add, from } = layerOf();
  const mempool = testMempoolNode();
  const submitted: string[] = [];
  const running = mempool.transition$.subscribe(({ input }: { input: MempoolInput }) => {
    if (input.type === "TxsSubmitted") for (const s of input.submissions) submitted.push(s.from);
  });
  running.add(mempool.start());
  const reactor = startMempoolGossipReactor(layer, {
    mempool,
    config: TEST_MEMPOOL_GOSSIP_CONFIG,
    logger: createLogger({ level: "none" }),
    onFault: (f) => assert.fail(f.reason),
  });
  for (const peer of ["A", "B", "D"]) add(peer);
  // B's copy arrives in the same turn as A's (queued, then in check); C's once the tx is pending,
  // before C's join is seen (the join offers C the pool as the mempool holds it).
  from("A", "k=v");
  from("B", "k=v");
  await tick();
  await tick();
  const hash = mempool.hashTx(text("k=v")).key;
  assert.ok(mempool.state().txs.has(hash), "A's copy was admitted");
  from("C", "k=v");
  await tick();
  add("C");
  await tick();
  assert.deepEqual(submitted, ["A"], "only the first copy reached admission");
  assert.deepEqual(mempool.state().txs.get(hash)?.senders, ["A", "B", "C"]);
  assert.ok(mempool.state().cache.has(hash));
  const gossipedTo = sent.map((s) => s.peerId);
  assert.deepEqual(gossipedTo, ["D"], "sent only to the peer that did not send it");
  assert.deepEqual(reactor.state().txs.first()?.senders, ["A", "B", "C"]);
  reactor.stop();
  running.unsubscribe();
});

test("with a relay hold a peer's tx reaches our other peers only once the hold's timer has released it", async () => {
  const { layer, sent, add, from } = layerOf();
  const mempool = testMempoolNode();
  const running = mempool.start();
  const reactor = startMempoolGossipReactor(layer, {
    mempool,
    config: { ...TEST_MEMPOOL_GOSSIP_CONFIG, relayHoldMs: 20 },
    logger: createLogger({ level: "none" }),
    onFault: (f) => assert.fail(f.reason),
  });
  for (const peer of ["A", "D"]) add(peer);
  from("A", "k=v");
  await tick();
  await tick();
  assert.ok(mempool.state().txs.has(mempool.hashTx(text("k=v")).key), "A's tx was admitted");
  assert.equal(sent.length, 0, "held: nothing relayed yet");
  // The first fire moves the cut, the second releases: between one and two holds.
  await new Promise((r) => setTimeout(r, 80));
  assert.deepEqual(
    sent.map((s) => s.peerId),
    ["D"],
    "released to the peer that did not send it",
  );
  reactor.stop();
  running.unsubscribe();
});
