// A peer's tx submitted without a promise (submitPeerTx): its outcome reaches the one function the
// reactor gave, with its sender and hash, once; a refused or invalid one says so; a client's
// submission in the same turn still gets its own answer with its CheckTx response.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ResponseCheckTx } from "../../src/wire/generated/tendermint/abci/types.js";
import type { PeerTxAnswered } from "../../streams/mempool-node.js";
import { admittingConnection, testMempoolNode } from "./mempool-node-fixture.js";

const tick = () => new Promise((r) => setImmediate(r));
const text = (s: string) => new TextEncoder().encode(s);

test("a peer's tx is answered through the reactor's function, once, beside a client's own answer", async () => {
  const connection = admittingConnection();
  // CheckTx refuses txs starting with "bad" (code 7), admits the rest
  connection.checkTx = async ({ tx }) =>
    ({ code: Buffer.from(tx).toString().startsWith("bad") ? 7 : 0, gasWanted: 0n }) as ResponseCheckTx;
  const mempool = testMempoolNode({ connection });
  const running = mempool.start();
  const answers: [string, string, string][] = [];
  const answered: PeerTxAnswered = (from, hash, outcome) => answers.push([from, hash, outcome.kind]);
  const a = mempool.hashTx(text("a=1"));
  const bad = mempool.hashTx(text("bad=1"));
  mempool.submitPeerTx(a, "A", answered);
  mempool.submitPeerTx(bad, "B", answered);
  const client = mempool.submit(text("c=1"));
  await tick();
  await tick();
  const again = mempool.hashTx(text("a=1"));
  mempool.submitPeerTx(again, "C", answered); // cached: refused before CheckTx
  await tick();
  await tick();
  assert.deepEqual(answers, [
    ["A", a.key, "added"],
    ["B", bad.key, "invalid"],
    ["C", a.key, "refused"],
  ]);
  const mine = await client;
  assert.equal(mine.outcome.kind, "added");
  assert.equal(mine.checkTx?.code, 0, "a client's answer keeps its CheckTx response");
  assert.ok(mempool.state().txs.has(a.key));
  assert.deepEqual(mempool.state().txs.get(a.key)?.senders, ["A", "C"], "the refused copy's sender is noted");
  running.unsubscribe();
});
