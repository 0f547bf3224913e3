// No window between the mempool and the tx index (issue 19 item 5): the moment the mempool is
// empty again after a burst of txs, every tx of the burst is found by `tx` and the last height's
// txs by `tx_search`, with no retry. The node indexes a height off the commit's critical path
// (streams/effects/height-index-queue.ts), so this proves the index readers wait for the heights
// already committed.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, test } from "node:test";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const TXS = 4_000;
const PER_BATCH = 200;

test("a tx that left the mempool because it was committed is found by tx and tx_search at once", {
  timeout: 180_000,
}, async () => {
  const home = await initFastHome({ timeout_commit: "300ms" }, "rxbft-index-window-");
  const node = new NodeProcess(home);
  try {
    await node.waitFor(
      () => node.rpcUrl !== undefined && node.height >= 1n,
      "the RPC server and a first block",
    );
    const url = node.rpcUrl!;
    const post = async (body: unknown) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await res.json()) as unknown;
    };
    const txs = Array.from({ length: TXS }, (_, i) => Buffer.from(`window${i}=`.padEnd(100, "v")));
    const hashes = txs.map((tx) => createHash("sha256").update(tx).digest("hex").toUpperCase());
    for (let start = 0; start < TXS; start += PER_BATCH) {
      const calls = txs.slice(start, start + PER_BATCH).map((tx, j) => ({
        jsonrpc: "2.0",
        id: start + j,
        method: "broadcast_tx_sync",
        params: { tx: tx.toString("base64") },
      }));
      const answers = (await post(calls)) as { result?: { code: number | string } }[];
      for (const a of answers) assert.equal(Number(a.result?.code), 0, JSON.stringify(a));
    }
    // Poll the pool as fast as the RPC answers; the first time it is empty, look everything up.
    const deadline = Date.now() + 90_000;
    for (;;) {
      const n = (await post({ jsonrpc: "2.0", id: 1, method: "num_unconfirmed_txs", params: {} })) as {
        result: { n_txs: string };
      };
      if (Number(n.result.n_txs) === 0) break;
      assert.ok(Date.now() < deadline, `the mempool still holds ${n.result.n_txs} txs`);
    }
    const missing: string[] = [];
    const heights: number[] = [];
    const lookups: Promise<void>[] = [];
    for (let start = 0; start < TXS; start += PER_BATCH) {
      const calls = hashes.slice(start, start + PER_BATCH).map((hash, j) => ({
        jsonrpc: "2.0",
        id: start + j,
        method: "tx",
        params: { hash: Buffer.from(hash, "hex").toString("base64") },
      }));
      lookups.push(
        post(calls).then((answers) => {
          for (const a of answers as { id: number; result?: { hash: string; height: string } }[]) {
            if (a.result?.hash !== hashes[a.id]) missing.push(hashes[a.id]!);
            else heights.push(Number(a.result.height));
          }
        }),
      );
    }
    await Promise.all(lookups);
    assert.deepEqual(missing.slice(0, 5), [], `${missing.length} of ${TXS} committed txs not found by tx`);
    // tx_search finds every tx of the last height (the one whose commit emptied the pool).
    const lastHeight = Math.max(...heights);
    const expected = heights.filter((h) => h === lastHeight).length;
    const found = (await post({
      jsonrpc: "2.0",
      id: 1,
      method: "tx_search",
      params: { query: `tx.height=${lastHeight} AND tx.hash EXISTS`, per_page: "100" },
    })) as { result?: { total_count: string }; error?: unknown };
    assert.equal(
      Number(found.result?.total_count),
      expected,
      `tx_search at height ${lastHeight}: ${JSON.stringify(found.error ?? "")}`,
    );
  } finally {
    node.kill("SIGKILL");
    await node.exited;
  }
});
