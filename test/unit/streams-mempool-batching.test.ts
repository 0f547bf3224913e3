// The node's mempool folds the submissions of one event-loop turn as one TxsSubmitted, in arrival
// order, answers every caller, and counts queued hashes as seen (broadcast_tx_async refuses a
// duplicate at once); another input (a flush, a block) folds the queue first, so order is kept.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { MempoolConnection } from "../../src/abci/client/abci-client.js";
import {
  CheckTxType,
  type RequestCheckTx,
  type ResponseCheckTx,
} from "../../src/wire/generated/tendermint/abci/types.js";
import { txHashHex } from "../../streams/projections/event-bus.js";
import { testMempoolNode } from "./mempool-node-fixture.js";

const tx = (s: string) => new TextEncoder().encode(s);

/** A connection recording each tx it checks; with `batches`, one offering checkTxs, recording each batch. */
function mempoolOver(checked: string[], batches?: string[][]) {
  const checkOne = (req: RequestCheckTx): ResponseCheckTx => {
    checked.push(`${req.type === CheckTxType.RECHECK ? "recheck " : ""}${new TextDecoder().decode(req.tx)}`);
    // "bad=…" txs fail CheckTx (code 1) on a recheck
    const bad = req.type === CheckTxType.RECHECK && req.tx[0] === 0x62;
    return { code: bad ? 1 : 0, gasWanted: 0n } as ResponseCheckTx;
  };
  const connection: MempoolConnection = {
    name: "mempool",
    error: undefined,
    echo: async (m) => m,
    flush: async () => {},
    checkTx: async (req) => {
      if (batches !== undefined) assert.fail("a connection offering checkTxs is not called per tx");
      return checkOne(req);
    },
    ...(batches && {
      checkTxs: async (reqs: readonly RequestCheckTx[]) => {
        batches.push(reqs.map((r) => new TextDecoder().decode(r.tx)));
        return reqs.map(checkOne);
      },
    }),
  };
  const mempool = testMempoolNode({ connection });
  const folded: string[] = [];
  const sub = mempool.transition$.subscribe(({ input }) =>
    folded.push(input.type === "TxsSubmitted" ? `TxsSubmitted(${input.submissions.length})` : input.type),
  );
  sub.add(mempool.start());
  return { mempool, folded, stop: () => sub.unsubscribe() };
}

test("one turn's submissions fold as one batch, in order, and every caller is answered", async () => {
  const checked: string[] = [];
  const { mempool, folded, stop } = mempoolOver(checked);
  const answers = Promise.all([
    mempool.submit(tx("a=1")),
    mempool.submit(tx("b=2")),
    mempool.submit(tx("a=1")),
  ]);
  assert.ok(mempool.seen(txHashHex(tx("b=2"))), "a queued tx counts as seen before its fold");
  assert.equal(mempool.state().cache.size, 0, "not folded within the turn");
  const [a, b, again] = await answers;
  assert.deepEqual(folded, ["TxsSubmitted(3)", "CheckTxsCompleted"]);
  assert.deepEqual(checked, ["a=1", "b=2"], "CheckTx once per new tx, in arrival order");
  assert.equal(a.outcome.kind, "added");
  assert.equal(b.outcome.kind, "added");
  assert.deepEqual(again.outcome.kind === "refused" && again.outcome.code, "MEMPOOL_TX_IN_CACHE");
  assert.deepEqual(
    [...mempool.state().txs.keys()],
    [txHashHex(tx("a=1")), txHashHex(tx("b=2"))],
    "pool in arrival order",
  );
  stop();
});

test("a flush folds the queued submissions first", async () => {
  const { mempool, folded, stop } = mempoolOver([]);
  const queued = mempool.submit(tx("c=3"));
  mempool.flush();
  assert.deepEqual(folded, ["TxsSubmitted(1)", "MempoolFlushed"]);
  assert.equal((await queued).outcome.kind, "added", "its CheckTx answer comes after the flush");
  stop();
});

test("an offered tx (broadcast_tx_async) folds with the turn's submissions and is admitted like them", async () => {
  const checked: string[] = [];
  const { mempool, folded, stop } = mempoolOver(checked);
  const waited = mempool.submit(tx("d=4"));
  mempool.offer(mempool.hashTx(tx("e=5")));
  mempool.offer(mempool.hashTx(tx("d=4")));
  assert.ok(mempool.seen(txHashHex(tx("e=5"))), "an offered tx counts as seen before its fold");
  assert.equal((await waited).outcome.kind, "added");
  assert.deepEqual(folded, ["TxsSubmitted(3)", "CheckTxsCompleted"]);
  assert.deepEqual(checked, ["d=4", "e=5"], "the duplicate offer is refused by the cache, not checked");
  assert.deepEqual([...mempool.state().txs.keys()], [txHashHex(tx("d=4")), txHashHex(tx("e=5"))]);
  stop();
});

test("a connection offering checkTxs gets a turn's new txs in one call, and the rechecks after a block in another", async () => {
  const checked: string[] = [];
  const batches: string[][] = [];
  const { mempool, folded, stop } = mempoolOver(checked, batches);
  const answers = Promise.all([mempool.submit(tx("f=6")), mempool.submit(tx("bad=7"))]);
  mempool.offer(mempool.hashTx(tx("g=8")));
  const [f, bad] = await answers;
  assert.equal(f.outcome.kind, "added");
  assert.equal(f.checkTx?.code, 0, "each caller still gets its own CheckTx answer");
  assert.equal(bad.outcome.kind, "added");
  assert.deepEqual(batches, [["f=6", "bad=7", "g=8"]]);
  // A block with f=6: the rest are rechecked in one call; bad=7 now fails and leaves the pool.
  mempool.blockCommitted({ header: { height: 2n }, data: { txs: [tx("f=6")] } } as never, [
    { code: 0 } as never,
  ]);
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(batches, [
    ["f=6", "bad=7", "g=8"],
    ["bad=7", "g=8"],
  ]);
  assert.deepEqual(checked, ["f=6", "bad=7", "g=8", "recheck bad=7", "recheck g=8"]);
  assert.deepEqual(folded, ["TxsSubmitted(3)", "CheckTxsCompleted", "BlockCommitted", "RechecksCompleted"]);
  assert.deepEqual([...mempool.state().txs.keys()], [txHashHex(tx("g=8"))]);
  stop();
});
