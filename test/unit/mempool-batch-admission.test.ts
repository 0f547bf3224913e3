// A batch of admissions (TxsSubmitted, CheckTxsCompleted) folds to the same mempool as its txs
// folded one by one (TxSubmitted, CheckTxCompleted): same pool in the same order, same cache, same
// running checks, same bytes, and the same decisions and gossip for every request, over random
// mixes of duplicates, peers, empty and oversized txs, a pool that fills up, and failing CheckTx.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  type CheckTxResult,
  DEFAULT_MEMPOOL_CONFIG,
  initialMempoolState,
  type MempoolEffect,
  type MempoolState,
  mempoolReducer,
  type TxSubmission,
} from "../../src/mempool/index.js";

const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();

/** The parts of a state and its effects that batching must not change. */
function view(state: MempoolState, effects: MempoolEffect[]) {
  return {
    txs: [...state.txs.entries()].map(([hash, t]) => [hash, t.senders.join(","), t.addedAtMs]),
    txsBytes: state.txsBytes,
    cache: state.cache.keySeq().toArray(),
    checking: [...state.checking.entries()]
      .map(([hash, c]) => [hash, c.senders.join(","), c.committed])
      .sort(),
    decided: effects
      .flatMap((e) => (e.type === "AdmissionDecided" ? [[e.requestId, JSON.stringify(e.outcome)]] : []))
      .sort(),
    gossip: effects.flatMap((e) => (e.type === "GossipTx" ? [[e.hash, e.exceptPeers.join(",")]] : [])),
    senders: effects.flatMap((e) =>
      e.type === "NoteTxSenders" ? e.notes.map((n) => [n.hash, n.peerId]) : [],
    ),
    checks: effects.flatMap((e) =>
      e.type === "RunCheckTx" ? [e.requestId] : e.type === "RunCheckTxs" ? e.txs.map((t) => t.requestId) : [],
    ),
    available: effects.filter((e) => e.type === "TxsAvailable").length,
  };
}

test("a batch of admissions folds to the same mempool as its txs one by one", () => {
  let seed = 3;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 200; round++) {
    const config = {
      ...DEFAULT_MEMPOOL_CONFIG,
      size: 1 + random(12),
      maxTxBytes: 6,
      cacheSize: random(4) === 0 ? 0 : 1 + random(20),
      keepInvalidTxsInCache: random(2) === 0,
    };
    let one = initialMempoolState(config, 5n);
    let batched = one;
    const oneEffects: MempoolEffect[] = [];
    const batchedEffects: MempoolEffect[] = [];
    let requestId = 1;
    for (let turn = 0; turn < 6; turn++) {
      const submissions: TxSubmission[] = [];
      for (let i = random(10); i > 0; i--) {
        const length = random(9) === 0 ? 0 : random(12) === 0 ? 7 : 3;
        const tx = new TextEncoder().encode(`t${random(15)}`.padEnd(length, "v").slice(0, length));
        const from = random(3) === 0 ? "rpc" : `peer${random(3)}`;
        submissions.push({ requestId: requestId++, hash: hashOf(tx), tx, from });
      }
      const time = 1000 + turn;
      for (const s of submissions) {
        const t = mempoolReducer(one, { type: "TxSubmitted", ...s, time });
        one = t.state;
        oneEffects.push(...t.effects);
      }
      const b = mempoolReducer(batched, { type: "TxsSubmitted", submissions, time });
      batched = b.state;
      batchedEffects.push(...b.effects);
      // CheckTx answers for what was sent to CheckTx, in the order sent; some fail.
      const sent = b.effects.flatMap((e) => (e.type === "RunCheckTxs" ? e.txs : []));
      const results: CheckTxResult[] = sent.map((s) => ({
        ...s,
        code: random(5) === 0 ? 1 : 0,
        gasWanted: 1n,
      }));
      for (const r of results) {
        const t = mempoolReducer(one, { type: "CheckTxCompleted", ...r, time });
        one = t.state;
        oneEffects.push(...t.effects);
      }
      const c = mempoolReducer(batched, { type: "CheckTxsCompleted", results, time });
      batched = c.state;
      batchedEffects.push(...c.effects);
      assert.deepEqual(view(batched, batchedEffects), view(one, oneEffects), `round ${round} turn ${turn}`);
    }
  }
});

test("a batch leaves the state it was given unchanged", () => {
  const state = initialMempoolState(DEFAULT_MEMPOOL_CONFIG, 1n);
  const tx = new TextEncoder().encode("k=v");
  const submissions = [{ requestId: 1, hash: hashOf(tx), tx, from: "rpc" }];
  const submitted = mempoolReducer(state, { type: "TxsSubmitted", submissions, time: 0 }).state;
  const added = mempoolReducer(submitted, {
    type: "CheckTxsCompleted",
    results: [{ ...submissions[0]!, code: 0, gasWanted: 0n }],
    time: 0,
  }).state;
  assert.equal(state.cache.size, 0);
  assert.equal(state.checking.size, 0);
  assert.equal(submitted.checking.size, 1);
  assert.equal(submitted.txs.size, 0);
  assert.equal(added.txs.size, 1);
  assert.equal(added.checking.size, 0);
  assert.ok(submitted.cache.has(hashOf(tx)));
});
