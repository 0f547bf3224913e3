// Indexing a height of thousands of txs gives the event loop turns while it builds its batch (the
// node's admissions run between slices), and the batch it writes is the same whole height.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { responseDeliverTx } from "../../src/abci/apps/responses.js";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer, INDEX_SLICE_TXS } from "../../src/store/indexer/event-indexer.js";
import type { IndexedTx } from "../../src/store/indexer/height-index-input.js";
import { LevelBatch, openBinaryLevel } from "../../src/store/level-database.js";
import { attribute, bytes } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-slices-"));
after(() => rmSync(root, { recursive: true, force: true }));

const txOf = (i: number): IndexedTx => ({
  tx: bytes(`k${i}=v${i}`),
  result: responseDeliverTx({
    events: [{ type: "app", attributes: [attribute("key", `k${i}`, true), attribute("creator", "c", true)] }],
  }),
});

test("a large height is indexed in slices, with event-loop turns between them, as one batch", async () => {
  const db = await openBinaryLevel(join(root, "db"));
  // Count the batch's puts as the event loop sees them between its turns.
  let puts = 0;
  const realPut = LevelBatch.prototype.put;
  LevelBatch.prototype.put = function (this: LevelBatch, key: Uint8Array, value: Uint8Array) {
    puts++;
    return realPut.call(this, key, value);
  };
  after(() => {
    LevelBatch.prototype.put = realPut;
  });
  const indexer = await EventIndexer.open(db);
  const count = 8 * INDEX_SLICE_TXS + 7;
  const txs = Array.from({ length: count }, (_, i) => txOf(i));
  const seen = new Set<number>();
  let running = true;
  const ping = () => {
    seen.add(puts);
    if (running) setImmediate(ping);
  };
  setImmediate(ping);
  await indexer.indexHeight({ height: 1n, txs, beginBlockEvents: [], endBlockEvents: [] });
  running = false;
  const total = puts;
  const between = [...seen].filter((n) => n > 0 && n < total);
  assert.ok(
    between.length >= 7,
    `the event loop turned ${between.length} times while the batch was half built (want ≥ 7)`,
  );
  // Nothing was written before the whole batch: the height is found whole.
  assert.equal(indexer.indexedHeight(), 1n);
  for (const i of [0, INDEX_SLICE_TXS, count - 1]) {
    const found = await indexer.txs.getByHash(sha256(txs[i]!.tx));
    assert.equal(found?.index, i);
  }
  const page = await indexer.txs.search({
    conditions: parseQuery("app.creator='c'").conditions,
    page: 1,
    perPage: 1,
    order: "asc",
  });
  assert.equal(page.total, count);
  await db.close();
});
