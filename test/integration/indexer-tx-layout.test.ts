// tx_index.db keeps a tx's bytes and result under its position (height, index), which only grows,
// and only the 12-byte position under its random hash: LevelDB's compactions then rewrite few of
// the index's bytes (docs/storage.md "Memory", the tx index's layout). A database of the earlier
// layout (TxResult under the hash) is refused at open with the way to rebuild it.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { txBodyKey, txHomesKey } from "../../src/store/indexer/index-keys.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { isLayoutRefusal } from "./indexer-layout-refusal.js";
import { hashOf, keyedHeight, positionsFound } from "./indexer-tx-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-tx-layout-"));
after(() => rmSync(root, { recursive: true, force: true }));

describe("tx_index.db's tx layout", () => {
  it("stores the TxResult under (height, index) and only the position under the hash", async () => {
    const db = await openBinaryLevel(join(root, "layout"));
    try {
      const indexer = await EventIndexer.open(db);
      await indexer.indexHeight(keyedHeight(7n, ["a", "b"]));
      const home = db.getSync(txHomesKey(hashOf("b")));
      assert.deepEqual([...(home ?? [])], [0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 1]);
      const body = db.getSync(txBodyKey(7n, 1));
      assert.ok(body !== undefined, "no TxResult at height 7 index 1");
      assert.deepEqual(Buffer.from(TxResult.decode(body).tx).toString(), "b");
      assert.equal((await indexer.txs.getByHash(hashOf("b")))?.index, 1);
    } finally {
      await db.close();
    }
  });

  it("a tx included again moves: its old position, entries and body are gone", async () => {
    const db = await openBinaryLevel(join(root, "move"));
    try {
      const indexer = await EventIndexer.open(db);
      await indexer.indexHeight(keyedHeight(1n, ["x", "y"]));
      await indexer.indexHeight(keyedHeight(2n, ["y"]));
      assert.equal(db.getSync(txBodyKey(1n, 1)), undefined);
      assert.deepEqual(
        [...(db.getSync(txHomesKey(hashOf("y"))) ?? [])],
        [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0],
      );
      assert.deepEqual(await positionsFound(indexer, "app.key = 'y'"), [[2n, 0]]);
      await indexer.removeHeight(2n, [hashOf("y")]);
      assert.equal(db.getSync(txHomesKey(hashOf("y"))), undefined);
      assert.equal(db.getSync(txBodyKey(2n, 0)), undefined);
      assert.equal((await indexer.txs.getByHash(hashOf("x")))?.height, 1n);
    } finally {
      await db.close();
    }
  });

  it("refuses a database of the earlier layout, naming the directory and the way to rebuild it", async () => {
    const location = join(root, "legacy");
    const db = await openBinaryLevel(location);
    // The earlier layout's `0x01 hash → TxResult`.
    await db.put(Uint8Array.of(0x01, ...hashOf("old")), Uint8Array.of(0x08, 0x01));
    try {
      await assert.rejects(EventIndexer.open(db), isLayoutRefusal(location));
    } finally {
      await db.close();
    }
  });
});
