// A peer's tx submitted without a promise (submitPeerTx): its outcome reaches the one function the
// reactor registered (answerPeerTxs), with its sender and hash, once; a refused or invalid one says
// so; a client's submission in the same turn still gets its own answer with its CheckTx response.
// The registration is one at a time, and a peer tx with none registered is our own wiring error.
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
  const removeAnswer = mempool.answerPeerTxs(answered);
  const a = mempool.hashTx(text("a=1"));
  const bad = mempool.hashTx(text("bad=1"));
  mempool.submitPeerTx(a, "A");
  mempool.submitPeerTx(bad, "B");
  const client = mempool.submit(text("c=1"));
  await tick();
  await tick();
  const again = mempool.hashTx(text("a=1"));
  mempool.submitPeerTx(again, "C"); // cached: refused before CheckTx
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
  removeAnswer();
  running.unsubscribe();
});

test("peer txs' answer is registered once at a time, and a peer tx needs one", () => {
  const mempool = testMempoolNode({ connection: admittingConnection() });
  const tx = mempool.hashTx(text("a=1"));
  assert.throws(() => mempool.submitPeerTx(tx, "A"), /peer tx was submitted before answerPeerTxs/);
  const first = mempool.answerPeerTxs(() => {});
  assert.throws(() => mempool.answerPeerTxs(() => {}), /already have their answer registered/);
  first();
  const second = mempool.answerPeerTxs(() => {});
  first(); // a stale removal leaves the newer registration in place
  assert.throws(() => mempool.answerPeerTxs(() => {}), /already have their answer registered/);
  second();
});
