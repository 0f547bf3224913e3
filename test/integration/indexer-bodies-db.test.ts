// The kv index over its two databases (index-keys.ts): tx_index_bodies.db gets only keys that grow
// with the height, and every crash between the writes of a height (bodies, index, the bodies a move
// left) is repaired by indexing the height again or, for a move, at open. Crashes are reproduced by
// putting back a copy of one database taken before the write that the crash would have lost.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import type { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { movedBodiesKey, txBodyKey } from "../../src/store/indexer/index-keys.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { openKvIndex, TX_INDEX_BODIES_DB, TX_INDEX_DB } from "../../src/store/open-stores.js";
import { attribute, indexedTx } from "../fixtures/store/chain-fixture.js";
import { isLayoutRefusal } from "./indexer-layout-refusal.js";

const root = mkdtempSync(join(tmpdir(), "indexer-bodies-db-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `data${dirs++}`);

const height = (h: bigint, names: string[]): HeightIndexInput => ({
  height: h,
  txs: names.map((name) => indexedTx(name, [{ type: "app", attributes: [attribute("key", name, true)] }])),
  beginBlockEvents: [{ type: "block", attributes: [attribute("h", `${h}`, true)] }],
  endBlockEvents: [],
});
const hashOf = (name: string) => sha256(new TextEncoder().encode(name));

async function withIndex<T>(dir: string, body: (indexer: EventIndexer) => Promise<T>): Promise<T> {
  const kv = await openKvIndex(dir, undefined);
  try {
    return await body(kv.indexer);
  } finally {
    await kv.close();
  }
}

const total = async (indexer: EventIndexer, query: string) =>
  (
    await indexer.txs.search({
      conditions: parseQuery(query).conditions,
      page: 1,
      perPage: 100,
      order: "asc",
    })
  ).total;

async function allKeys(location: string): Promise<string[]> {
  const db = await openBinaryLevel(location);
  try {
    return (await db.keys().all()).map((k) => Buffer.from(k).toString("hex"));
  } finally {
    await db.close();
  }
}

async function bodyAt(dir: string, h: bigint, index: number): Promise<Uint8Array> {
  const db = await openBinaryLevel(join(dir, TX_INDEX_BODIES_DB));
  try {
    const body = db.getSync(txBodyKey(h, index));
    assert.ok(body !== undefined, `no body at ${h}/${index}`);
    return body;
  } finally {
    await db.close();
  }
}

async function putBody(dir: string, h: bigint, index: number, body: Uint8Array): Promise<void> {
  const db = await openBinaryLevel(join(dir, TX_INDEX_BODIES_DB));
  try {
    await db.put(txBodyKey(h, index), body);
  } finally {
    await db.close();
  }
}

/** Replaces `name` in `dir` with the copy `saved` holds. */
function putBack(dir: string, saved: string, name: string): void {
  rmSync(join(dir, name), { recursive: true, force: true });
  cpSync(join(saved, name), join(dir, name), { recursive: true });
}

function save(dir: string, name: string): string {
  const saved = freshDir();
  cpSync(join(dir, name), join(saved, name), { recursive: true });
  return saved;
}

describe("the kv index's two databases", () => {
  it("writes each height's bodies past every key tx_index_bodies.db held, and none into tx_index.db", async () => {
    const dir = freshDir();
    let before: string[] = [];
    for (const [h, names] of [
      [1n, ["a", "b"]],
      [2n, []],
      [3n, ["c"]],
    ] as const) {
      await withIndex(dir, (indexer) => indexer.indexHeight(height(h, [...names])));
      const now = await allKeys(join(dir, TX_INDEX_BODIES_DB));
      const added = now.filter((k) => !before.includes(k));
      assert.ok(added.length > 0, `height ${h} wrote nothing to the bodies' database`);
      const lastBefore = before.at(-1);
      if (lastBefore !== undefined)
        assert.ok(
          added.every((k) => k > lastBefore),
          `height ${h}: ${added}`,
        );
      before = now;
    }
    assert.deepEqual(
      (await allKeys(join(dir, TX_INDEX_DB))).filter((k) => k.startsWith("04")),
      [],
      "tx_index.db holds bodies",
    );
    await withIndex(dir, async (indexer) => {
      assert.equal(indexer.indexedHeight(), 3n);
      assert.equal((await indexer.txs.getByHash(hashOf("b")))?.index, 1);
      // Position walks skip each height's record: three txs, not three plus three records.
      assert.equal(await total(indexer, "tx.height >= 1"), 3);
      assert.equal(await total(indexer, "tx.height = 2"), 0);
      const blocks = await indexer.blocks.search({
        conditions: parseQuery("block.height >= 1").conditions,
        page: 1,
        perPage: 10,
        order: "asc",
      });
      assert.deepEqual(blocks.heights, [1n, 2n, 3n]);
      assert.equal(await indexer.blocks.has(2n), true);
    });
  });

  it("a crash after the bodies' write and before the index's: the height is indexed again, to the same answers", async () => {
    const dir = freshDir();
    await withIndex(dir, (indexer) => indexer.indexHeight(height(1n, ["a"])));
    const saved = save(dir, TX_INDEX_DB);
    await withIndex(dir, (indexer) => indexer.indexHeight(height(2n, ["b", "c"])));
    putBack(dir, saved, TX_INDEX_DB);
    await withIndex(dir, async (indexer) => {
      assert.equal(indexer.indexedHeight(), 1n);
      assert.equal(await indexer.txs.getByHash(hashOf("b")), undefined);
      await indexer.indexHeight(height(2n, ["b", "c"]));
      assert.equal((await indexer.txs.getByHash(hashOf("c")))?.height, 2n);
      assert.equal(await total(indexer, "tx.height = 2"), 2);
      assert.equal(await total(indexer, "app.key = 'b'"), 1);
    });
  });

  it("the index kept a height its bodies lost (a power cut): the height counts as not indexed", async () => {
    const dir = freshDir();
    await withIndex(dir, (indexer) => indexer.indexHeight(height(1n, ["a"])));
    const saved = save(dir, TX_INDEX_BODIES_DB);
    await withIndex(dir, (indexer) => indexer.indexHeight(height(2n, ["b"])));
    putBack(dir, saved, TX_INDEX_BODIES_DB);
    await withIndex(dir, async (indexer) => {
      assert.equal(indexer.indexedHeight(), 1n, "a height whose bodies are gone counts as indexed");
      await indexer.indexHeight(height(2n, ["b"]));
      assert.equal((await indexer.txs.getByHash(hashOf("b")))?.height, 2n);
    });
  });

  it("a move whose old body's delete a crash lost is finished at open", async () => {
    const dir = freshDir();
    await withIndex(dir, (indexer) => indexer.indexHeight(height(1n, ["x", "y"])));
    const oldBody = await bodyAt(dir, 1n, 1);
    await withIndex(dir, (indexer) => indexer.indexHeight(height(2n, ["y"])));
    // The state the index's write leaves before the third write: the record, and the old body.
    const index = await openBinaryLevel(join(dir, TX_INDEX_DB));
    await index.put(movedBodiesKey(2n), txBodyKey(1n, 1).subarray(1));
    await index.close();
    await putBody(dir, 1n, 1, oldBody);
    await withIndex(dir, async (indexer) => {
      assert.equal(await total(indexer, "tx.height = 1"), 1, "the moved tx's old body is still found");
      assert.equal((await indexer.txs.getByHash(hashOf("y")))?.height, 2n);
    });
    assert.ok(
      !(await allKeys(join(dir, TX_INDEX_DB))).includes(Buffer.from(movedBodiesKey(2n)).toString("hex")),
    );
  });

  it("a move a crash cut after the bodies' write is found again when the height is indexed again", async () => {
    const dir = freshDir();
    await withIndex(dir, (indexer) => indexer.indexHeight(height(1n, ["x", "y"])));
    const saved = save(dir, TX_INDEX_DB);
    const oldBody = await bodyAt(dir, 1n, 1);
    await withIndex(dir, (indexer) => indexer.indexHeight(height(2n, ["y"])));
    // What the bodies' write alone leaves: the old body is deleted only after the index's write.
    putBack(dir, saved, TX_INDEX_DB);
    await putBody(dir, 1n, 1, oldBody);
    await withIndex(dir, async (indexer) => {
      assert.equal(indexer.indexedHeight(), 1n);
      await indexer.indexHeight(height(2n, ["y"]));
      assert.equal(await total(indexer, "tx.height = 1"), 1);
      assert.equal(await total(indexer, "app.key = 'y'"), 1);
      assert.equal((await indexer.txs.getByHash(hashOf("y")))?.height, 2n);
    });
  });

  it("a removal cut after the index's write: indexing the height anew drops the bodies left", async () => {
    const dir = freshDir();
    await withIndex(dir, async (indexer) => {
      await indexer.indexHeight(height(1n, ["a"]));
      await indexer.indexHeight(height(2n, ["b", "c"]));
    });
    const saved = save(dir, TX_INDEX_BODIES_DB);
    await withIndex(dir, (indexer) => indexer.removeHeight(2n, [hashOf("b"), hashOf("c")]));
    putBack(dir, saved, TX_INDEX_BODIES_DB);
    await withIndex(dir, async (indexer) => {
      assert.equal(indexer.indexedHeight(), 1n);
      await indexer.indexHeight(height(2n, ["d"]));
      assert.equal(await total(indexer, "tx.height = 2"), 1, "a removed block's body is still found");
      assert.equal(await indexer.txs.getByHash(hashOf("c")), undefined);
    });
  });

  it("refuses a tx_index.db that holds bodies (the layout before the split), naming it and the fix", async () => {
    const dir = freshDir();
    const location = join(dir, TX_INDEX_DB);
    const db = await openBinaryLevel(location);
    await db.put(txBodyKey(1n, 0), Uint8Array.of(0x08, 0x01));
    await db.close();
    await assert.rejects(openKvIndex(dir, undefined), isLayoutRefusal(location));
  });
});
