// A pool's log rebuild held through a block's commit pieces (VersionedMap.holdingRebuild,
// BlockTxsCommitted) and done once the block has left (BlockCommitted), over the txs still pending
// then: the pieces never copy the half of the pool still live, and what every version answers is
// the same as without the hold.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  DEFAULT_MEMPOOL_CONFIG,
  initialMempoolState,
  type MempoolState,
  mempoolReducer,
} from "../../src/mempool/index.js";
import { VersionedMap } from "../../src/mempool/versioned-map.js";

const key = (i: number) => `K${i}`;

test("a map holding its rebuild appends past the bound, answers the same, and is rebuilt when released", () => {
  let held = VersionedMap.empty<number>();
  for (let i = 0; i < 4000; i++) held = held.set(key(i), i);
  held = held.holdingRebuild(true);
  const log = held.log;
  // Deleting 3,500 of 4,000 crosses the bound (2 × live + 1,025 entries) early on: held, no rebuild.
  for (let from = 0; from < 3500; from += 500) {
    held = held.withMutations((d) => {
      for (let i = from; i < from + 500; i++) d.delete(key(i));
    });
    assert.equal(held.log, log, "no rebuild while held");
    assert.equal(held.rebuildHeld, true, "drafts pass the hold on");
  }
  assert.ok(held.retainedEntries > 2 * held.size + 1025);
  assert.equal(held.size, 500);
  assert.deepEqual(
    [...held.keys()],
    Array.from({ length: 500 }, (_, i) => key(3500 + i)),
  );
  const released = held.holdingRebuild(false);
  assert.notEqual(released.log, log);
  assert.equal(released.retainedEntries, 500);
  assert.equal(released.rebuildHeld, false);
  assert.deepEqual([...released], [...held]);
  // The same edits unheld give the same map.
  let plain = VersionedMap.empty<number>();
  for (let i = 0; i < 4000; i++) plain = plain.set(key(i), i);
  plain = plain.withMutations((d) => {
    for (let i = 0; i < 3500; i++) d.delete(key(i));
  });
  assert.deepEqual([...plain], [...released]);
});

const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();

function pooled(n: number): MempoolState {
  const config = { ...DEFAULT_MEMPOOL_CONFIG, size: 10_000, cacheSize: 10_000 };
  let state = initialMempoolState(config, 1n);
  const text = new TextEncoder();
  const submissions = Array.from({ length: n }, (_, i) => {
    const tx = text.encode(`k${i}=v`);
    return { requestId: i + 1, hash: hashOf(tx), tx, from: "rpc" };
  });
  state = mempoolReducer(state, { type: "TxsSubmitted", submissions, time: 0 }).state;
  const results = submissions.map((s) => ({ ...s, code: 0, gasWanted: 0n }));
  return mempoolReducer(state, { type: "CheckTxsCompleted", results, time: 0 }).state;
}

test("a block's commit pieces leave the pool's log as it was; BlockCommitted rebuilds it over what is left", () => {
  const start = pooled(6000);
  const committed = [...start.txs.keys()].slice(0, 5500);
  let state = start;
  for (let from = 0; from < 5000; from += 1000) {
    state = mempoolReducer(state, {
      type: "BlockTxsCommitted",
      height: 2n,
      txHashes: committed.slice(from, from + 1000),
      deliverTxCodes: committed.slice(from, from + 1000).map(() => 0),
      time: 0,
    }).state;
    assert.equal(state.txs.log, start.txs.log, "no rebuild in a piece");
  }
  const done = mempoolReducer(state, {
    type: "BlockCommitted",
    height: 2n,
    txHashes: committed.slice(5000),
    deliverTxCodes: committed.slice(5000).map(() => 0),
    time: 0,
  }).state;
  assert.equal(done.txs.size, 500);
  assert.equal(done.txs.retainedEntries, 500, "rebuilt over the 500 txs left");
  assert.equal(done.txs.rebuildHeld, false);
  // The same as the block committed in one piece.
  const whole = mempoolReducer(start, {
    type: "BlockCommitted",
    height: 2n,
    txHashes: committed,
    deliverTxCodes: committed.map(() => 0),
    time: 0,
  }).state;
  assert.deepEqual([...done.txs.keys()], [...whole.txs.keys()]);
  assert.deepEqual(done.cache.keySeq().toArray(), whole.cache.keySeq().toArray());
  assert.equal(done.txsBytes, whole.txsBytes);
});
