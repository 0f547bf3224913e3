// After a block, the node's mempool drops exactly the block's txs, whichever way it learns their
// hashes: the pool's own arrays (a block this node proposed), the hashes the block's data hash
// remembered (a block another node proposed, checked here), or neither (computed). The block's
// txs are copies in another order than the pool's, and its first tx failed DeliverTx (so it leaves
// the cache while the others stay): a hash in lower case or from the wrong array leaves a
// committed tx in the pool, one from the wrong index takes the wrong tx out of the cache.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { dataHash, dataHashAhead, rememberedTxHashes, rememberedTxKeys } from "../../src/wire/hashes.js";
import { txHashHex } from "../../streams/projections/event-bus.js";
import { testMempoolNode } from "./mempool-node-fixture.js";

const tx = (s: string) => new TextEncoder().encode(s);

async function poolHolding(txs: readonly Uint8Array[]) {
  const mempool = testMempoolNode();
  const sub = mempool.start();
  const answers = await Promise.all(txs.map((t) => mempool.submit(t)));
  assert.ok(answers.every((a) => a.outcome.kind === "added"));
  return { mempool, stop: () => sub.unsubscribe() };
}

const blockOf = (txs: Uint8Array[]) => ({ header: { height: 2n }, data: { txs } }) as unknown as Block;
const settle = () => new Promise((r) => setImmediate(r));

for (const how of [
  "the pool's own arrays",
  "the keys the reaping remembered",
  "the data hash's remembered hashes",
  "no hash known",
] as const) {
  test(`a committed block removes exactly its txs from the pool (${how})`, async () => {
    const pending = ["a=1", "b=2", "c=3", "d=4"].map(tx);
    const { mempool, stop } = await poolHolding(pending);
    const [a, , c, d] = pending;
    const pooled = how === "the pool's own arrays" || how === "the keys the reaping remembered";
    const committed = pooled ? [d!, a!, c!] : [tx("d=4"), tx("a=1"), tx("c=3")];
    if (how === "the keys the reaping remembered") {
      // As the node's reaping does: the pool entries' digests, which carry the keys they entered by.
      const entries = [...mempool.state().txs.values()];
      const digests = committed.map((t) => entries.find((e) => e.tx === t)!.digests);
      await dataHashAhead(committed, digests, () => Promise.resolve());
      assert.deepEqual(
        rememberedTxKeys(committed),
        ["d=4", "a=1", "c=3"].map((t) => txHashHex(tx(t))),
      );
    } else if (how === "the data hash's remembered hashes") {
      dataHash(committed);
      assert.ok(rememberedTxHashes(committed), "the block's hashes are remembered");
    } else {
      assert.equal(rememberedTxHashes(committed), undefined);
    }
    mempool.blockCommitted(blockOf(committed), [{ code: 1 }, { code: 0 }, { code: 0 }] as never);
    await settle();
    assert.deepEqual(
      [...mempool.state().txs.keys()],
      [txHashHex(tx("b=2"))],
      "only the uncommitted tx is left",
    );
    assert.deepEqual(
      ["d=4", "a=1", "c=3", "b=2"].map((t) => mempool.seen(txHashHex(tx(t)))),
      [false, true, true, true],
      "the tx that failed DeliverTx left the cache; the valid ones and the pending one stay",
    );
    stop();
  });
}
