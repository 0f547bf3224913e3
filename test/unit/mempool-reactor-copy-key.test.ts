// The mempool reactor finds the key of a tx's later copies (other peers, other buffers, the same
// bytes) from the first copy's, by the bytes, instead of copying and hashing each: one hash per tx,
// the same senders noted and the same admissions as hashing every copy. Bytes that only share the
// memo's 32-bit key never take another tx's key, and a copy of a tx the mempool no longer holds is
// admitted again.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createLogger } from "../../src/logger/index.js";
import type { MempoolInput } from "../../src/mempool/input.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { bytesKey } from "../../src/wire/admitted-tx-digests.js";
import type { TxSha256 } from "../../src/wire/hashes.js";
import { startMempoolGossipReactor } from "../../streams/reactors/mempool-gossip.js";
import { fakePeerLayer } from "./fake-peer-layer.js";
import { TEST_MEMPOOL_GOSSIP_CONFIG, testMempoolNode } from "./mempool-node-fixture.js";

const tick = () => new Promise((r) => setImmediate(r));
const text = (s: string) => new TextEncoder().encode(s);

function setUp() {
  const { layer, messages, add } = fakePeerLayer([CHANNEL_MEMPOOL], () =>
    assert.fail("no peer is at fault here"),
  );
  const mempool = testMempoolNode();
  const submitted: string[] = [];
  const running = mempool.transition$.subscribe(({ input }: { input: MempoolInput }) => {
    if (input.type === "TxsSubmitted")
      for (const s of input.submissions) submitted.push(`${s.from}:${s.hash}`);
  });
  running.add(mempool.start());
  const hashed: string[] = [];
  const keysHandedOn: (number | undefined)[] = [];
  const reactor = startMempoolGossipReactor(layer, {
    mempool: {
      ...mempool,
      hashTx: (tx: Uint8Array, key?: number): TxSha256 => {
        hashed.push(new TextDecoder().decode(tx));
        keysHandedOn.push(key);
        return mempool.hashTx(tx, key);
      },
    },
    config: TEST_MEMPOOL_GOSSIP_CONFIG,
    logger: createLogger({ level: "none" }),
    onFault: (f) => assert.fail(f.reason),
  });
  for (const peer of ["A", "B", "C", "D"]) add(peer);
  // Each message is encoded afresh: every copy's bytes are a view into a buffer of its own.
  const from = (peerId: string, tx: string) =>
    messages.next({ peerId, channelId: CHANNEL_MEMPOOL, bytes: encodeMempoolTx(text(tx)) });
  const keyOf = (tx: string) => mempool.hashTx(text(tx)).key;
  const stop = () => {
    reactor.stop();
    running.unsubscribe();
  };
  return { mempool, reactor, from, hashed, keysHandedOn, submitted, keyOf, stop };
}

test("a tx's later copies from other peers are known by their bytes: hashed once, every sender noted", async () => {
  const { mempool, reactor, from, hashed, submitted, keyOf, stop } = setUp();
  from("A", "k=v");
  from("B", "k=v"); // same turn: queued
  await tick();
  from("C", "k=v"); // in check or pending
  await tick();
  await tick();
  from("D", "k=v"); // pending
  await tick();
  assert.deepEqual(hashed, ["k=v"], "only the first copy was hashed");
  const key = keyOf("k=v");
  assert.deepEqual(submitted, [`A:${key}`], "only the first copy reached admission");
  assert.deepEqual(mempool.state().txs.get(key)?.senders, ["A", "B", "C", "D"]);
  assert.deepEqual(reactor.state().txs.first()?.senders, ["A", "B", "C", "D"]);
  stop();
});

test("bytes that share the memo's key with another tx are hashed and admitted as their own tx", async () => {
  const { mempool, from, hashed, submitted, keyOf, stop } = setUp();
  // Two txs whose 32-bit FNV-1a keys collide: the memo finds the first for the second's bytes.
  assert.equal(bytesKey(text("k=112789")), bytesKey(text("k=349192")));
  from("A", "k=112789");
  await tick();
  await tick();
  from("B", "k=349192");
  await tick();
  await tick();
  assert.deepEqual(hashed, ["k=112789", "k=349192"]);
  assert.deepEqual(submitted, [`A:${keyOf("k=112789")}`, `B:${keyOf("k=349192")}`]);
  assert.ok(mempool.state().txs.has(keyOf("k=349192")), "the second tx is pending under its own key");
  assert.deepEqual(mempool.state().txs.get(keyOf("k=112789"))?.senders, ["A"]);
  stop();
});

test("a copy of a tx the mempool no longer holds is admitted again", async () => {
  const { mempool, from, hashed, submitted, keyOf, stop } = setUp();
  from("A", "k=v");
  await tick();
  await tick();
  mempool.flush(); // the pool and the cache are dropped: the tx is new again
  from("B", "k=v");
  await tick();
  await tick();
  const key = keyOf("k=v");
  assert.deepEqual(submitted, [`A:${key}`, `B:${key}`]);
  assert.deepEqual(hashed, ["k=v", "k=v"]);
  assert.deepEqual(mempool.state().txs.get(key)?.senders, ["B"]);
  stop();
});

test("a peer's tx is keyed by its bytes once: the key goes with its hash to the mempool", async () => {
  const { from, hashed, keysHandedOn, stop } = setUp();
  from("A", "k=1");
  from("B", "k=2");
  await tick();
  await tick();
  assert.deepEqual(hashed, ["k=1", "k=2"]);
  assert.deepEqual(keysHandedOn, [bytesKey(text("k=1")), bytesKey(text("k=2"))]);
  stop();
});
