import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import {
  DEFAULT_MEMPOOL_CONFIG,
  initialMempoolState,
  type MempoolConfig,
  type MempoolEffect,
  type MempoolInput,
  type MempoolState,
  mempoolReducer,
  protoSizeOfTx,
  reapMaxBytesMaxGas,
  reapMaxTxs,
} from "../../src/mempool/index.js";

const bytes = (s: string) => new TextEncoder().encode(s);
const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();
let nextRequest = 1;

function submit(tx: string, from = "rpc"): MempoolInput {
  const b = bytes(tx);
  return { type: "TxSubmitted", requestId: nextRequest++, hash: hashOf(b), tx: b, from, time: 0 };
}
function checked(input: MempoolInput, code = 0, gasWanted = 1n, time = 0): MempoolInput {
  if (input.type !== "TxSubmitted") throw new Error("not a submission");
  const { requestId, hash, tx, from } = input;
  return { type: "CheckTxCompleted", requestId, hash, tx, from, code, gasWanted, time };
}
function committed(height: bigint, txs: string[], codes: number[] = [], time = 0): MempoolInput {
  return {
    type: "BlockCommitted",
    height,
    txHashes: txs.map((t) => hashOf(bytes(t))),
    deliverTxCodes: codes,
    time,
  };
}

/** Folds inputs; returns the final state and every effect in order. */
function run(inputs: MempoolInput[], config: Partial<MempoolConfig> = {}, start?: MempoolState) {
  let state = start ?? initialMempoolState({ ...DEFAULT_MEMPOOL_CONFIG, ...config }, 0n);
  const effects: MempoolEffect[] = [];
  for (const input of inputs) {
    const t = mempoolReducer(state, input);
    state = t.state;
    effects.push(...t.effects);
  }
  return { state, effects };
}
/** Submits and passes CheckTx for each tx. */
function admit(txs: string[], config: Partial<MempoolConfig> = {}) {
  return run(
    txs.flatMap((tx) => {
      const s = submit(tx);
      return [s, checked(s)];
    }),
    config,
  );
}
const decisions = (effects: MempoolEffect[]) =>
  effects
    .filter((e) => e.type === "AdmissionDecided")
    .map((e) => (e.type === "AdmissionDecided" ? e.outcome : null));
const pendingTxs = (state: MempoolState) => reapMaxTxs(state, -1).map((t) => new TextDecoder().decode(t.tx));

describe("admission", () => {
  test("a new tx runs CheckTx and, with code 0, is added and gossiped", () => {
    const s = submit("a=1");
    const first = run([s]);
    assert.deepEqual(
      first.effects.map((e) => e.type),
      ["RunCheckTx"],
    );
    const { state, effects } = run([checked(s)], {}, first.state);
    assert.deepEqual(decisions(effects), [{ kind: "added" }]);
    assert.ok(effects.some((e) => e.type === "GossipTx"));
    assert.deepEqual(pendingTxs(state), ["a=1"]);
    assert.equal(state.txsBytes, 3);
  });

  test("a tx already in the cache is refused with Tendermint's message, naming it pending", () => {
    const s = submit("a=1");
    const { effects } = run([s, checked(s), submit("a=1")]);
    const refused = decisions(effects)[1];
    assert.equal(refused?.kind, "refused");
    if (refused?.kind === "refused") {
      assert.equal(refused.refusal.message, "tx already exists in cache");
      assert.match(refused.refusal.detail ?? "", /pending in the mempool/);
    }
  });

  test("a duplicate submitted while its first CheckTx is running is refused, not checked twice", () => {
    const { effects } = run([submit("x"), submit("x")]);
    assert.equal(effects.filter((e) => e.type === "RunCheckTx").length, 1);
    assert.equal(decisions(effects)[0]?.kind, "refused");
  });

  test("a tx larger than max_tx_bytes is refused before CheckTx", () => {
    const { effects } = run([submit("0123456789")], { maxTxBytes: 5 });
    assert.deepEqual(decisions(effects), [
      {
        kind: "refused",
        refusal: { code: "MEMPOOL_TX_TOO_LARGE", message: "Tx too large. Max size is 5, but got 10" },
      },
    ]);
    assert.ok(!effects.some((e) => e.type === "RunCheckTx"));
  });

  test("an empty tx is refused", () => {
    const { effects } = run([submit("")]);
    assert.equal(decisions(effects)[0]?.kind, "refused");
  });

  test("a full pool (by count) refuses with the counts in the message", () => {
    const { state } = admit(["a", "b"], { size: 2 });
    const { effects } = run([submit("c")], {}, state);
    const outcome = decisions(effects)[0];
    assert.equal(outcome?.kind, "refused");
    if (outcome?.kind === "refused") {
      assert.equal(
        outcome.refusal.message,
        "mempool is full: number of txs 2 (max: 2), total txs bytes 2 (max: 1073741824)",
      );
    }
  });

  test("a full pool (by bytes) refuses", () => {
    const { state } = admit(["aaaa"], { maxTxsBytes: 6 });
    const outcome = decisions(run([submit("bbb")], {}, state).effects)[0];
    assert.equal(outcome?.kind === "refused" && outcome.refusal.code, "MEMPOOL_FULL");
  });

  test("the pool filling up while CheckTx ran refuses at completion and forgets the tx", () => {
    const a = submit("a");
    const b = submit("b");
    const { state, effects } = run([a, b, checked(a), checked(b)], { size: 1 });
    assert.deepEqual(
      decisions(effects).map((d) => d?.kind),
      ["added", "refused"],
    );
    assert.ok(!state.cache.has(hashOf(bytes("b"))), "a resubmission later must be possible");
  });

  test("a tx failing CheckTx is dropped from the cache so a corrected resubmission works", () => {
    const s = submit("bad");
    const { state, effects } = run([s, checked(s, 7)]);
    assert.deepEqual(decisions(effects), [{ kind: "invalid", code: 7 }]);
    const again = submit("bad");
    assert.deepEqual(
      run([again], {}, state).effects.map((e) => e.type),
      ["RunCheckTx"],
    );
  });

  test("keep-invalid-txs-in-cache keeps a failed tx in the cache", () => {
    const s = submit("bad");
    const { state } = run([s, checked(s, 7)], { keepInvalidTxsInCache: true });
    assert.equal(decisions(run([submit("bad")], {}, state).effects)[0]?.kind, "refused");
  });

  test("txs are kept in arrival order, not in CheckTx completion order", () => {
    const a = submit("a");
    const b = submit("b");
    const { state } = run([a, b, checked(b), checked(a)]);
    // Arrival order into the pool is the order CheckTx admitted them (Tendermint appends on answer).
    assert.deepEqual(pendingTxs(state), ["b", "a"]);
    const ordered = admit(["1", "2", "3"]);
    assert.deepEqual(pendingTxs(ordered.state), ["1", "2", "3"]);
  });

  test("a second sender of a pending tx is remembered and never gossiped to", () => {
    const s = submit("t", "peerA");
    const { state } = run([s, checked(s), submit("t", "peerB")]);
    assert.deepEqual(state.txs.get(hashOf(bytes("t")))?.senders, ["peerA", "peerB"]);
    const gossip = run([submit("u", "peerC")]).effects;
    assert.equal(gossip[0]?.type, "RunCheckTx");
  });

  test("the cache is an LRU bounded by cache_size", () => {
    const { state } = admit(["a", "b", "c"], { cacheSize: 2 });
    assert.equal(state.cache.size, 2);
    assert.ok(!state.cache.has(hashOf(bytes("a"))));
  });
});

describe("after a block", () => {
  test("committed txs leave the pool and stay in the cache", () => {
    const { state } = admit(["a", "b", "c"], { recheck: false });
    const after = run([committed(1n, ["a", "c"], [0, 0])], {}, state);
    assert.deepEqual(pendingTxs(after.state), ["b"]);
    assert.equal(after.state.txsBytes, 1);
    assert.equal(decisions(run([submit("a")], {}, after.state).effects)[0]?.kind, "refused");
  });

  test("a committed tx that failed DeliverTx leaves the cache unless keep-invalid", () => {
    const { state } = admit(["a"], { recheck: false });
    const after = run([committed(1n, ["a"], [5])], {}, state).state;
    assert.ok(!after.cache.has(hashOf(bytes("a"))));
  });

  test("remaining txs are rechecked, and a failed recheck removes the tx before any reap", () => {
    const { state } = admit(["a", "b", "c"]);
    const block = run([committed(1n, ["a"], [0])], {}, state);
    const recheck = block.effects.find((e) => e.type === "RunRecheck");
    assert.ok(recheck && recheck.type === "RunRecheck");
    assert.deepEqual(
      recheck.txs.map((t) => new TextDecoder().decode(t.tx)),
      ["b", "c"],
    );
    const failed = run(
      [{ type: "RecheckCompleted", generation: 1, hash: hashOf(bytes("b")), code: 1, time: 0 }],
      {},
      block.state,
    );
    assert.deepEqual(pendingTxs(failed.state), ["c"]);
    assert.deepEqual(
      reapMaxBytesMaxGas(failed.state, -1, -1n).map((t) => t.hash),
      [hashOf(bytes("c"))],
    );
    assert.ok(failed.effects.some((e) => e.type === "TxsEvicted" && e.reason === "recheck-failed"));
  });

  test("a window of recheck answers folds to what the answers fold to one at a time", () => {
    const { state } = admit(["a", "b", "c", "d", "e"]);
    const block = run([committed(1n, ["a"], [0])], {}, state).state;
    const answers = [
      { hash: hashOf(bytes("b")), code: 0 },
      { hash: hashOf(bytes("c")), code: 3 },
      { hash: hashOf(bytes("zz")), code: 1 }, // not rechecking: ignored
      { hash: hashOf(bytes("d")), code: 0 },
      { hash: hashOf(bytes("e")), code: 7 },
    ];
    const single = run(
      answers.map((a) => ({ type: "RecheckCompleted" as const, generation: 1, ...a, time: 0 })),
      {},
      block,
    );
    const windowed = run(
      [{ type: "RechecksCompleted", generation: 1, results: answers, time: 0 }],
      {},
      block,
    );
    assert.deepEqual(pendingTxs(windowed.state), ["b", "d"]);
    assert.deepEqual(pendingTxs(windowed.state), pendingTxs(single.state));
    assert.equal(windowed.state.txsBytes, single.state.txsBytes);
    assert.equal(windowed.state.recheck.pending, 0);
    assert.equal(windowed.state.cache.size, single.state.cache.size);
    assert.deepEqual(
      windowed.effects
        .filter((e) => e.type === "TxsEvicted")
        .flatMap((e) => (e.type === "TxsEvicted" ? e.hashes : [])),
      [hashOf(bytes("c")), hashOf(bytes("e"))],
    );
    // The recheck is over: consensus is told txs are available, once, as with single answers.
    assert.equal(windowed.effects.filter((e) => e.type === "TxsAvailable").length, 1);
    assert.equal(single.effects.filter((e) => e.type === "TxsAvailable").length, 1);
  });

  test("a stale recheck answer (tx no longer rechecking) changes nothing", () => {
    const { state } = admit(["a"], { recheck: false });
    const t = mempoolReducer(state, {
      type: "RecheckCompleted",
      generation: 0,
      hash: hashOf(bytes("a")),
      code: 1,
      time: 0,
    });
    assert.equal(t.state, state);
    assert.deepEqual(t.effects, []);
  });

  test("answers of an earlier recheck (a block or a flush came since) change nothing", () => {
    const { state } = admit(["a", "b", "c"]);
    const first = run([committed(1n, ["a"], [0])], {}, state).state;
    const second = run([committed(2n, [])], {}, first);
    const recheck = second.effects.find((e) => e.type === "RunRecheck");
    assert.ok(recheck?.type === "RunRecheck" && recheck.generation === second.state.recheck.generation);
    assert.equal(second.state.recheck.pending, 2);
    const refusal = (generation: number) => ({
      type: "RechecksCompleted" as const,
      generation,
      results: [{ hash: hashOf(bytes("b")), code: 1 }],
      time: 0,
    });
    const stale = run([refusal(first.recheck.generation)], {}, second.state);
    assert.equal(stale.state, second.state);
    const current = run([refusal(second.state.recheck.generation)], {}, second.state);
    assert.deepEqual(pendingTxs(current.state), ["c"]);
    assert.equal(current.state.recheck.pending, 1);
    assert.ok(!current.effects.some((e) => e.type === "TxsAvailable"), "c's recheck is still running");
    const flushed = run([{ type: "MempoolFlushed", time: 0 }], {}, second.state).state;
    assert.equal(run([refusal(second.state.recheck.generation)], {}, flushed).state, flushed);
  });

  test("a tx committed while its CheckTx was running is not added afterwards", () => {
    const s = submit("late");
    const { state, effects } = run([s, committed(1n, ["late"], [0]), checked(s)]);
    assert.deepEqual(pendingTxs(state), []);
    assert.equal(decisions(effects)[0]?.kind, "refused");
  });

  test("ttl-num-blocks drops txs older than the limit", () => {
    const { state } = admit(["old"], { recheck: false, ttlNumBlocks: 2 });
    const h2 = run([committed(1n, []), committed(2n, [])], {}, state).state;
    assert.deepEqual(pendingTxs(h2), ["old"]);
    const h3 = run([committed(3n, [])], {}, h2);
    assert.deepEqual(pendingTxs(h3.state), []);
    assert.ok(h3.effects.some((e) => e.type === "TxsEvicted" && e.reason === "ttl-expired"));
  });

  test("ttl-duration drops txs older than the duration at the next block", () => {
    const s = submit("old");
    const { state } = run([s, checked(s, 0, 1n, 1_000)], { recheck: false, ttlDurationMs: 500 });
    assert.deepEqual(pendingTxs(run([committed(1n, [], [], 1_400)], {}, state).state), ["old"]);
    assert.deepEqual(pendingTxs(run([committed(1n, [], [], 1_600)], {}, state).state), []);
  });
});

describe("txs available", () => {
  test("is announced once per height, on the first admission", () => {
    const { effects } = admit(["a", "b"]);
    assert.deepEqual(
      effects.filter((e) => e.type === "TxsAvailable"),
      [{ type: "TxsAvailable", height: 1n }],
    );
  });

  test("after a block it waits for the recheck to finish, then announces the next height", () => {
    const { state } = admit(["a", "b"]);
    const block = run([committed(1n, ["a"], [0])], {}, state);
    assert.ok(!block.effects.some((e) => e.type === "TxsAvailable"));
    const done = run(
      [{ type: "RecheckCompleted", generation: 1, hash: hashOf(bytes("b")), code: 0, time: 0 }],
      {},
      block.state,
    );
    assert.deepEqual(
      done.effects.filter((e) => e.type === "TxsAvailable"),
      [{ type: "TxsAvailable", height: 2n }],
    );
  });

  test("is not announced when the block emptied the pool", () => {
    const { state } = admit(["a"]);
    assert.ok(!run([committed(1n, ["a"], [0])], {}, state).effects.some((e) => e.type === "TxsAvailable"));
  });
});

describe("reap", () => {
  test("stops at max_bytes counting each tx's protobuf overhead", () => {
    const { state } = admit(["aaaa", "bbbb", "cccc"]);
    assert.equal(protoSizeOfTx(4), 6);
    assert.equal(reapMaxBytesMaxGas(state, 12, -1n).length, 2);
    assert.equal(reapMaxBytesMaxGas(state, 11, -1n).length, 1);
    assert.equal(reapMaxBytesMaxGas(state, -1, -1n).length, 3);
  });

  test("stops at max_gas, in order, without skipping to a smaller tx", () => {
    const inputs: MempoolInput[] = [];
    for (const [tx, gas] of [
      ["a", 5n],
      ["b", 10n],
      ["c", 1n],
    ] as const) {
      const s = submit(tx);
      inputs.push(s, checked(s, 0, gas));
    }
    const { state } = run(inputs);
    assert.deepEqual(
      reapMaxBytesMaxGas(state, -1, 14n).map((t) => new TextDecoder().decode(t.tx)),
      ["a"],
    );
    assert.equal(reapMaxBytesMaxGas(state, -1, 16n).length, 3);
  });

  test("protoSizeOfTx counts multi-byte length prefixes", () => {
    assert.equal(protoSizeOfTx(127), 1 + 1 + 127);
    assert.equal(protoSizeOfTx(128), 1 + 2 + 128);
    assert.equal(protoSizeOfTx(16384), 1 + 3 + 16384);
  });

  test("reapMaxTxs returns at most the limit in order", () => {
    const { state } = admit(["1", "2", "3"]);
    assert.deepEqual(
      reapMaxTxs(state, 2).map((t) => new TextDecoder().decode(t.tx)),
      ["1", "2"],
    );
  });
});

test("unsafe_flush_mempool empties the pool and the cache", () => {
  const { state } = admit(["a", "b"]);
  const flushed = run([{ type: "MempoolFlushed", time: 0 }], {}, state);
  assert.equal(flushed.state.txs.size, 0);
  assert.equal(flushed.state.cache.size, 0);
  assert.equal(flushed.state.txsBytes, 0);
  assert.deepEqual(
    run([submit("a")], {}, flushed.state).effects.map((e) => e.type),
    ["RunCheckTx"],
  );
});

test("the reducer never mutates the state it is given", () => {
  const { state } = admit(["a", "b"]);
  const snapshot = JSON.stringify({
    txs: state.txs.keySeq().toArray(),
    cache: state.cache.keySeq().toArray(),
  });
  run([committed(1n, ["a"], [0]), submit("c"), { type: "MempoolFlushed", time: 0 }], {}, state);
  assert.equal(
    JSON.stringify({ txs: state.txs.keySeq().toArray(), cache: state.cache.keySeq().toArray() }),
    snapshot,
  );
});

describe("senders (never gossiped back)", () => {
  const gossip = (effects: MempoolEffect[]) => effects.find((e) => e.type === "GossipTx");

  test("every peer that sent a tx while its CheckTx ran is excluded from its gossip", () => {
    const s = submit("a=1", "peerA");
    const { effects, state } = run([s, submit("a=1", "peerB"), submit("a=1", "rpc"), submit("a=1", "peerA")]);
    assert.equal(effects.filter((e) => e.type === "NoteTxSenders").length, 0);
    const after = run([checked(s)], {}, state);
    assert.deepEqual(gossip(after.effects), {
      type: "GossipTx",
      hash: s.type === "TxSubmitted" ? s.hash : "",
      tx: bytes("a=1"),
      height: 0n,
      exceptPeers: ["peerA", "peerB"],
    });
    assert.deepEqual(after.state.txs.first()?.senders, ["peerA", "peerB"]);
  });

  test("a peer sending a pending tx is noted once for the gossip; the RPC never is", () => {
    const s = submit("a=1");
    const { effects, state } = run([
      s,
      checked(s),
      submit("a=1", "peerC"),
      submit("a=1", "peerC"),
      submit("a=1"),
    ]);
    assert.deepEqual(
      effects.filter((e) => e.type === "NoteTxSenders"),
      [{ type: "NoteTxSenders", notes: [{ hash: hashOf(bytes("a=1")), peerId: "peerC" }] }],
    );
    assert.deepEqual(gossip(effects)?.type === "GossipTx" && gossip(effects), {
      type: "GossipTx",
      hash: hashOf(bytes("a=1")),
      tx: bytes("a=1"),
      height: 0n,
      exceptPeers: [],
    });
    assert.deepEqual(state.txs.first()?.senders, ["peerC"]);
  });

  test("one fold's noted senders go to the gossip as one effect, resent copies' among them", () => {
    const a = submit("a=1");
    const b = submit("b=1");
    const { state } = run([a, checked(a), b, checked(b)]);
    const copies = [submit("a=1", "peerA"), submit("b=1", "peerB")].map((c) => {
      if (c.type !== "TxSubmitted") throw new Error("not a submission");
      const { type: _type, time: _time, ...submission } = c;
      return submission;
    });
    const resent = [{ hash: hashOf(bytes("b=1")), from: "peerC" }];
    const t = mempoolReducer(state, { type: "TxsSubmitted", submissions: copies, resent, time: 0 });
    assert.deepEqual(
      t.effects.filter((e) => e.type === "NoteTxSenders"),
      [
        {
          type: "NoteTxSenders",
          notes: [
            { hash: hashOf(bytes("a=1")), peerId: "peerA" },
            { hash: hashOf(bytes("b=1")), peerId: "peerB" },
            { hash: hashOf(bytes("b=1")), peerId: "peerC" },
          ],
        },
      ],
    );
    assert.deepEqual(t.state.txs.get(hashOf(bytes("b=1")))?.senders, ["peerB", "peerC"]);
  });

  test("committed pending txs stop being gossiped; a tx committed during its CheckTx is refused", () => {
    const a = submit("a=1");
    const b = submit("b=1");
    const { state, effects } = run([a, checked(a), b, committed(1n, ["a=1", "b=1", "zz"])]);
    assert.deepEqual(
      effects.filter((e) => e.type === "StopGossipingTxs"),
      [{ type: "StopGossipingTxs", hashes: [hashOf(bytes("a=1"))] }],
    );
    const late = run([checked(b)], {}, state);
    assert.equal(decisions(late.effects)[0]?.kind, "refused");
    assert.equal(gossip(late.effects), undefined);
  });
});
