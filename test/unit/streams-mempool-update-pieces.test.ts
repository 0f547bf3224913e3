// The node's mempool update after a large block, a piece per turn of the event loop
// (streams/mempool-node.ts, BlockTxsCommitted then BlockCommitted; the recheck a window per turn,
// streams/effects/mempool-abci.ts): the same pool and cache as one BlockCommitted, RPC work runs
// between the pieces, and v0.34's order still holds: a new tx's CheckTx held by the mempool lock
// goes out only after every recheck.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import type { MempoolConnection } from "../../src/abci/client/abci-client.js";
import {
  DEFAULT_MEMPOOL_CONFIG,
  initialMempoolState,
  type MempoolConfig,
  type MempoolEffect,
  type MempoolState,
  mempoolReducer,
} from "../../src/mempool/index.js";
import {
  CheckTxType,
  type RequestCheckTx,
  type ResponseCheckTx,
} from "../../src/wire/generated/tendermint/abci/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { MempoolCommitLock } from "../../streams/effects/block-commit.js";
import { UPDATE_PIECE } from "../../streams/mempool-node.js";
import { testMempoolNode } from "./mempool-node-fixture.js";

const text = new TextEncoder();
const hashOf = (tx: Uint8Array) => createHash("sha256").update(tx).digest("hex").toUpperCase();
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function pooled(config: MempoolConfig, txs: Uint8Array[]): MempoolState {
  let state = initialMempoolState(config, 1n);
  const submissions = txs.map((tx, i) => ({ requestId: i + 1, hash: hashOf(tx), tx, from: "rpc" }));
  state = mempoolReducer(state, { type: "TxsSubmitted", submissions, time: 0 }).state;
  const results = submissions.map((s) => ({ ...s, code: 0, gasWanted: 0n }));
  return mempoolReducer(state, { type: "CheckTxsCompleted", results, time: 0 }).state;
}

describe("the mempool update in pieces", () => {
  it("BlockTxsCommitted pieces then BlockCommitted fold to the same mempool as BlockCommitted alone", () => {
    const config = { ...DEFAULT_MEMPOOL_CONFIG, size: 100, cacheSize: 60 };
    const txs = Array.from({ length: 80 }, (_, i) => text.encode(`k${i}=v`));
    const start = pooled(config, txs);
    // Committed: some pooled txs, some unknown ones, some invalid (code 1).
    const committed = [...txs.slice(0, 50), text.encode("other=1"), text.encode("other=2")].map(hashOf);
    const codes = committed.map((_, i) => (i % 7 === 3 ? 1 : 0));
    const whole = mempoolReducer(start, {
      type: "BlockCommitted",
      height: 2n,
      txHashes: committed,
      deliverTxCodes: codes,
      time: 0,
    });
    let state = start;
    const effects: MempoolEffect[] = [];
    for (let from = 0; from < 40; from += 20) {
      const t = mempoolReducer(state, {
        type: "BlockTxsCommitted",
        height: 2n,
        txHashes: committed.slice(from, from + 20),
        deliverTxCodes: codes.slice(from, from + 20),
        time: 0,
      });
      // A piece changes nothing but the pool, the cache and the running checks.
      assert.equal(t.state.height, 1n);
      assert.equal(t.state.recheck, state.recheck);
      state = t.state;
      effects.push(...t.effects);
    }
    const last = mempoolReducer(state, {
      type: "BlockCommitted",
      height: 2n,
      txHashes: committed.slice(40),
      deliverTxCodes: codes.slice(40),
      time: 0,
    });
    effects.push(...last.effects);
    const view = (s: MempoolState) => ({
      txs: [...s.txs.keys()],
      bytes: s.txsBytes,
      cache: s.cache.keySeq().toArray(),
      height: s.height,
      recheck: s.recheck,
    });
    assert.deepEqual(view(last.state), view(whole.state));
    const stopped = (list: readonly MempoolEffect[]) =>
      list.flatMap((e) => (e.type === "StopGossipingTxs" ? e.hashes : []));
    assert.deepEqual(stopped(effects), stopped(whole.effects));
    const rechecked = (list: readonly MempoolEffect[]) =>
      list.flatMap((e) => (e.type === "RunRecheck" ? e.txs.map((t) => t.hash) : []));
    assert.deepEqual(rechecked(effects), rechecked(whole.effects));
  });

  it("turns the event loop between pieces and sends a held CheckTx after every recheck", async () => {
    const order: string[] = [];
    const inner: MempoolConnection = {
      name: "mempool",
      error: undefined,
      echo: async (m) => m,
      flush: async () => {},
      checkTx: async () => assert.fail("a connection offering checkTxs is not called per tx"),
      checkTxs: async (reqs: readonly RequestCheckTx[]) => {
        const recheck = reqs[0]?.type === CheckTxType.RECHECK;
        order.push(`${recheck ? "recheck" : "checkTx"} ${reqs.length}`);
        return reqs.map(() => ({ code: 0, gasWanted: 0n }) as ResponseCheckTx);
      },
    };
    const lock = new MempoolCommitLock(inner);
    const mempool = testMempoolNode({
      config: { ...DEFAULT_MEMPOOL_CONFIG, size: 20_000, cacheSize: 20_000 },
      connection: lock.connection,
      betweenPieces: nextTurn,
    });
    const folded: string[] = [];
    const sub = mempool.transition$.subscribe(({ input }) => folded.push(input.type));
    sub.add(mempool.start());
    const count = 3 * UPDATE_PIECE + 100;
    const left = 3000;
    const txs = Array.from({ length: count + left }, (_, i) => text.encode(`key${i}=value${i}`));
    await Promise.all(txs.map((tx) => mempool.submit(tx)));
    assert.equal(mempool.state().txs.size, count + left);
    order.length = 0;

    await lock.lock();
    const block = { header: { height: 2n }, data: { txs: txs.slice(0, count) } } as unknown as Block;
    let turns = 0;
    let immediate = setImmediate(function tick() {
      turns++;
      immediate = setImmediate(tick);
    });
    const updated = mempool.blockCommitted(
      block,
      block.data.txs.map(() => ({ code: 0 }) as never),
    );
    // A new tx arrives while the mempool is locked: its CheckTx is held.
    const fresh = mempool.submit(text.encode("fresh=1"));
    await updated;
    lock.unlock();
    const answer = await fresh;
    clearImmediate(immediate);
    sub.unsubscribe();

    assert.equal(answer.outcome.kind, "added");
    assert.equal(mempool.state().txs.size, left + 1);
    // Three pieces ahead of BlockCommitted, and the turns between them and between the windows.
    assert.deepEqual(
      folded.filter((t) => t.startsWith("Block")),
      ["BlockTxsCommitted", "BlockTxsCommitted", "BlockTxsCommitted", "BlockCommitted"],
    );
    assert.ok(turns >= 5, `the event loop turned ${turns} times during the update`);
    // Every recheck window (1,024 each) went out before the held CheckTx.
    assert.deepEqual(order, ["recheck 1024", "recheck 1024", "recheck 952", "checkTx 1"]);
  });
});
