// Four validators from `rxbft testnet --v 4`, real processes on loopback: every node commits the
// same block hash and app hash at every height; a tx sent to any node is committed exactly once
// (in one block, on every node) and /tx finds it at the same height on every node.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { highest, Network } from "./network-harness.js";
import { killAllNodes } from "./node-harness.js";

after(killAllNodes);

const ALL = [0, 1, 2, 3];

test("four validators: same block and app hashes everywhere; a tx sent to any node is committed once and found on all", {
  timeout: 240_000,
}, async () => {
  const net = await Network.create({ validators: 4, prefix: "rxbft-net-consensus-" });
  net.startAll();
  try {
    await net.waitForHeight(ALL, 5n, 120_000);

    // one tx per node, each sent to a different node: the kvstore's app hash moves with them
    const txs = ALL.map((i) => `net-key-${i}=value-${i}-${Date.now()}`);
    const hashes = await Promise.all(ALL.map((i) => net.sendTx(i, txs[i]!)));
    const heights = await Promise.all(hashes.map((h) => net.waitForTxEverywhere(ALL, h, 60_000)));
    for (const [k, perNode] of heights.entries())
      assert.ok(
        perNode.every((h) => h === perNode[0]),
        `tx ${k} is at one height on every node: ${perNode.join(",")}`,
      );

    const top = highest(heights.flat()) + 2n;
    await net.waitForHeight(ALL, top, 60_000);
    const diffs = await net.compareHashes(ALL, 1n, top);
    assert.deepEqual(diffs, [], "every node has the same block hash and app hash at every height");
    const appHashes = new Set<string>();
    for (let h = 1n; h <= top; h++) appHashes.add((await net.hashesAt(0, h)).appHash);
    assert.ok(appHashes.size >= 2, "the txs moved the app hash (so the comparison covers app state)");

    // committed once: each tx appears in exactly one block of the chain, on every node
    for (const i of ALL) {
      const seen = new Map<string, number>();
      for (let h = 1n; h <= top; h++) {
        const block = await net.rpc<{ block: { data: { txs: string[] | null } } }>(i, `/block?height=${h}`);
        for (const tx of block.block.data.txs ?? []) {
          const text = Buffer.from(tx, "base64").toString();
          seen.set(text, (seen.get(text) ?? 0) + 1);
        }
      }
      for (const tx of txs) assert.equal(seen.get(tx), 1, `node${i}: ${tx} is in exactly one block`);
    }
    assert.deepEqual(net.forks(), []);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${ALL.map((i) => net.tail(i)).join("\n")}`);
  } finally {
    await net.stopAll();
  }
});
