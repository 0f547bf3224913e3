// 10,000 transactions through the RPC (broadcast_tx_sync) into the mempool of a running node:
// every one is committed exactly once, and the pool is back to 0.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { openStores } from "../../src/store/open-stores.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const TXS = 10_000;
const IN_FLIGHT = 64;

test(`${TXS} txs through broadcast_tx_sync are committed exactly once`, { timeout: 240_000 }, async () => {
  const home = await initFastHome({ timeout_commit: "200ms" }, "rxbft-txs-");
  const node = new NodeProcess(home);
  await node.waitFor(
    () => node.rpcUrl !== undefined && node.height >= 1n,
    "the RPC server and a first block",
  );
  const url = node.rpcUrl!;
  const started = Date.now();
  let next = 0;
  let refusedFull = 0;
  const send = async (i: number): Promise<void> => {
    const tx = Buffer.from(`key${i}=value${i}`).toString("base64");
    for (let attempt = 0; attempt < 200; attempt++) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "broadcast_tx_sync", params: { tx } }),
      });
      const body = (await res.json()) as {
        result?: { code: number | string };
        error?: { data?: string; message: string };
      };
      if (body.result) {
        assert.equal(Number(body.result.code), 0, `tx ${i}: CheckTx code ${body.result.code}`);
        return;
      }
      // A full pool refuses: wait for a block to make room, then send again.
      assert.match(JSON.stringify(body.error), /mempool is full/, `tx ${i}: ${JSON.stringify(body.error)}`);
      refusedFull++;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`tx ${i} never admitted`);
  };
  try {
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < TXS) await send(next++);
      }),
    );
  } catch (error) {
    next = TXS; // the other senders stop too
    node.kill("SIGKILL");
    throw error;
  }
  const admittedMs = Date.now() - started;

  const pending = async () => {
    const r = (await node.rpc("/num_unconfirmed_txs")).result as Record<string, unknown>;
    return Number(r.n_txs ?? r.nTxs);
  };
  const committedTxs = () => node.committed.reduce((n, c) => n + c.txs, 0);
  await node.waitFor(() => committedTxs() >= TXS, `${TXS} committed txs`, 120_000);
  assert.equal(await pending(), 0, "the pool is empty");
  node.kill("SIGINT");
  assert.equal((await node.exited).code, 0, node.output.slice(-2000));

  const seen = new Map<string, number>();
  const stores = await openStores(join(home, "data"), { indexer: "kv" });
  try {
    for (let h = 1n; h <= stores.blockStore.height(); h++) {
      const block = await stores.blockStore.loadBlock(h);
      for (const tx of block!.data.txs) {
        const text = Buffer.from(tx).toString();
        seen.set(text, (seen.get(text) ?? 0) + 1);
      }
    }
  } finally {
    await stores.close();
  }
  assert.equal(seen.size, TXS);
  for (const [tx, count] of seen) assert.equal(count, 1, `${tx} committed ${count} times`);
  for (let i = 0; i < TXS; i += 997) assert.equal(seen.get(`key${i}=value${i}`), 1);
  console.log(
    `# ${TXS} txs admitted in ${admittedMs} ms (${Math.round((TXS * 1000) / admittedMs)}/s), ${refusedFull} full-pool refusals, committed over ${node.height} heights`,
  );
});
