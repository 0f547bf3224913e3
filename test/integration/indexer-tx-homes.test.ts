// A tx's home in tx_index.db is keyed by 8 bytes of its hash (index-keys.ts): a key may list
// several positions, and every reader keeps only the one whose body hashes to the hash asked.
// SHA-256 prefixes cannot be made to collide here, so the collision is forced by writing another
// tx's position into a hash's homes, as a real one would have it; and a database of the layout
// before (`0x05 hash(32) → position`) is refused at open.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { txBodyKey, txHomesKey } from "../../src/store/indexer/index-keys.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { isLayoutRefusal } from "./indexer-layout-refusal.js";
import { hashOf, keyedHeight, positionsFound } from "./indexer-tx-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-tx-homes-"));
after(() => rmSync(root, { recursive: true, force: true }));

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();
const position = (h: number, index: number) => [0, 0, 0, 0, 0, 0, 0, h, 0, 0, 0, index];

describe("tx homes keyed by a prefix of the hash", () => {
  it("a forced prefix collision costs a read, never a wrong answer: lookup, search, move, removal", async () => {
    const db = await openBinaryLevel(join(root, "collision"));
    const bodies = await openBinaryLevel(join(root, "collision-bodies"));
    try {
      const indexer = await EventIndexer.open(db, { bodies });
      await indexer.indexHeight(keyedHeight(1n, ["a"]));
      await indexer.indexHeight(keyedHeight(2n, ["b"]));
      // b's hash as if it began as a's: its position listed first under a's key.
      const homesOfA = txHomesKey(hashOf("a"));
      await db.put(homesOfA, Uint8Array.from([...position(2, 0), ...position(1, 0)]));

      const byHash = await indexer.txs.getByHash(hashOf("a"));
      assert.equal(Buffer.from(byHash?.tx ?? []).toString(), "a");
      assert.equal(byHash?.height, 1n);
      // A hash of another length names no tx, even one sharing a's first bytes.
      assert.equal(await indexer.txs.getByHash(hashOf("a").subarray(0, 8)), undefined);
      assert.equal(await indexer.txs.getByHash(hashOf("a").subarray(0, 2)), undefined);
      assert.deepEqual(await positionsFound(indexer, `tx.hash = '${hex(hashOf("a"))}'`), [[1n, 0]]);

      // a included again: it moves, and b's position under the shared key stays.
      await indexer.indexHeight(keyedHeight(3n, ["a"]));
      assert.deepEqual([...(db.getSync(homesOfA) ?? [])], [...position(2, 0), ...position(3, 0)]);
      assert.equal(bodies.getSync(txBodyKey(1n, 0)), undefined);
      assert.equal(bodies.getSync(txBodyKey(2n, 0)) !== undefined, true);
      assert.equal((await indexer.txs.getByHash(hashOf("a")))?.height, 3n);
      assert.equal((await indexer.txs.getByHash(hashOf("b")))?.height, 2n);
      assert.deepEqual(await positionsFound(indexer, "app.key = 'a'"), [[3n, 0]]);

      // Rolled back: only this height's position goes from the shared key.
      await indexer.removeHeight(3n, [hashOf("a")]);
      assert.deepEqual([...(db.getSync(homesOfA) ?? [])], position(2, 0));
      assert.equal(await indexer.txs.getByHash(hashOf("a")), undefined);
      assert.equal((await indexer.txs.getByHash(hashOf("b")))?.height, 2n);
    } finally {
      await db.close();
      await bodies.close();
    }
  });

  it("a position whose body is gone answers not found and is dropped when the hash is indexed again", async () => {
    const db = await openBinaryLevel(join(root, "gone"));
    const bodies = await openBinaryLevel(join(root, "gone-bodies"));
    try {
      const indexer = await EventIndexer.open(db, { bodies });
      await indexer.indexHeight(keyedHeight(1n, ["a"]));
      await bodies.del(txBodyKey(1n, 0));
      assert.equal(await indexer.txs.getByHash(hashOf("a")), undefined);
      await indexer.indexHeight(keyedHeight(2n, ["a"]));
      assert.deepEqual([...(db.getSync(txHomesKey(hashOf("a"))) ?? [])], position(2, 0));
      assert.equal((await indexer.txs.getByHash(hashOf("a")))?.height, 2n);
    } finally {
      await db.close();
      await bodies.close();
    }
  });

  it("refuses a tx_index.db of full-hash homes, naming the directory and the way to rebuild it", async () => {
    const location = join(root, "full-hash");
    const db = await openBinaryLevel(location);
    // The layout before: `0x05 hash(32) → height(8) index(4)`.
    await db.put(Uint8Array.of(0x05, ...hashOf("old")), Uint8Array.from(position(1, 0)));
    try {
      await assert.rejects(EventIndexer.open(db), isLayoutRefusal(location));
    } finally {
      await db.close();
    }
  });
});
