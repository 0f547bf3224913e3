// The kv index's event lists (index-keys.ts, event-lists.ts) over the node's two databases: a
// kvstore-shaped height keeps a key per tx only for its unique attribute, its constant pairs in
// chunks of 1,024 txs that searches page across; a crash between the writes of a listed height is
// repaired by indexing it again to the same keys; a listed tx that moves leaves its old chunk; and
// an empty new height asks the databases nothing.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import {
  EVENT_LIST_ITEM_BYTES,
  EVENT_LIST_SPAN,
  PREFIX_TX_EVENT,
  PREFIX_TX_EVENT_LIST,
} from "../../src/store/indexer/index-keys.js";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import { openKvIndex, TX_INDEX_DB } from "../../src/store/open-stores.js";
import { attribute, indexedTx } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-event-lists-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `data${dirs++}`);

// The kvstore's DeliverTx event: its key, and two pairs the same in every tx.
const CREATOR = attribute("creator", "Cosmoshi Netowoko");
const INDEX_KEY = attribute("index_key", "index is working");
const kvTx = (name: string) =>
  indexedTx(name, [{ type: "app", attributes: [CREATOR, attribute("key", name), INDEX_KEY] }]);
const height = (h: bigint, names: string[]): HeightIndexInput => ({
  height: h,
  txs: names.map(kvTx),
  beginBlockEvents: [],
  endBlockEvents: [],
});
const names = (h: bigint, count: number) => Array.from({ length: count }, (_, i) => `k${h}-${i}`);

async function withIndex<T>(dir: string, body: (indexer: EventIndexer) => Promise<T>): Promise<T> {
  const kv = await openKvIndex(dir, undefined);
  try {
    return await body(kv.indexer);
  } finally {
    await kv.close();
  }
}

async function search(
  indexer: EventIndexer,
  query: string,
  page = 1,
  perPage = 100,
  order: "asc" | "desc" = "asc",
) {
  const got = await indexer.txs.search({ conditions: parseQuery(query).conditions, page, perPage, order });
  return { total: got.total, txs: got.txs.map((t) => new TextDecoder().decode(t.tx)) };
}

async function entries(dir: string, prefix: number): Promise<[string, string][]> {
  const db = await openBinaryLevel(join(dir, TX_INDEX_DB));
  try {
    const all = await db.iterator({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) }).all();
    return all.map(([k, v]) => [Buffer.from(k).toString("hex"), Buffer.from(v).toString("hex")]);
  } finally {
    await db.close();
  }
}

function save(dir: string): string {
  const saved = freshDir();
  cpSync(join(dir, TX_INDEX_DB), join(saved, TX_INDEX_DB), { recursive: true });
  return saved;
}

function putBack(dir: string, saved: string): void {
  rmSync(join(dir, TX_INDEX_DB), { recursive: true, force: true });
  cpSync(join(saved, TX_INDEX_DB), join(dir, TX_INDEX_DB), { recursive: true });
}

describe("event lists", () => {
  it("a kvstore height keeps one key per tx, its constant pairs in chunks that searches page across", async () => {
    const dir = freshDir();
    const count = 2 * EVENT_LIST_SPAN + 452;
    await withIndex(dir, (indexer) => indexer.indexHeight(height(1n, names(1n, count))));
    assert.equal((await entries(dir, PREFIX_TX_EVENT)).length, count, "a key per tx: app.key's");
    const lists = await entries(dir, PREFIX_TX_EVENT_LIST);
    assert.equal(lists.length, 2 * 3, "two pairs in three chunks");
    const items = lists.reduce((sum, [, value]) => sum + value.length / 2 / EVENT_LIST_ITEM_BYTES, 0);
    assert.equal(items, 2 * count, "an occurrence per tx and pair");
    await withIndex(dir, async (indexer) => {
      const all = names(1n, count);
      for (const order of ["asc", "desc"] as const) {
        const want = order === "asc" ? all : [...all].reverse();
        // Page 11 of 100 spans the first chunk's end (index 1,024).
        const got = await search(indexer, "app.creator = 'Cosmoshi Netowoko'", 11, 100, order);
        assert.equal(got.total, count);
        assert.deepEqual(got.txs, want.slice(1000, 1100));
      }
      assert.deepEqual(await search(indexer, "app.key = 'k1-1500' AND app.index_key = 'index is working'"), {
        total: 1,
        txs: ["k1-1500"],
      });
      assert.equal((await search(indexer, "app.key = 'k1-1500' AND app.creator = 'someone else'")).total, 0);
      assert.equal(
        (await search(indexer, "app.creator CONTAINS 'Netowoko' AND tx.height = 1", 1, 1)).total,
        count,
      );
    });
  });

  it("a crash between a listed height's writes: indexing it again gives the same keys and answers", async () => {
    const straight = freshDir();
    await withIndex(straight, async (indexer) => {
      await indexer.indexHeight(height(1n, names(1n, 30)));
      await indexer.indexHeight(height(2n, names(2n, 40)));
    });
    const want = await withIndex(straight, (indexer) =>
      search(indexer, "app.index_key = 'index is working'", 2, 25),
    );
    // The index lost height 2 (the bodies kept it), and the other way round (a power cut after the
    // index's write that lost the bodies' write is what the open's comparison of both covers).
    const dir = freshDir();
    await withIndex(dir, (indexer) => indexer.indexHeight(height(1n, names(1n, 30))));
    const saved = save(dir);
    await withIndex(dir, (indexer) => indexer.indexHeight(height(2n, names(2n, 40))));
    putBack(dir, saved);
    await withIndex(dir, async (indexer) => {
      assert.equal(indexer.indexedHeight(), 1n);
      assert.equal((await search(indexer, "app.index_key = 'index is working'")).total, 30);
      await indexer.indexHeight(height(2n, names(2n, 40)));
      // And once more, as a repair that ran twice would.
      await indexer.indexHeight(height(2n, names(2n, 40)));
      assert.deepEqual(await search(indexer, "app.index_key = 'index is working'", 2, 25), want);
    });
    for (const prefix of [PREFIX_TX_EVENT, PREFIX_TX_EVENT_LIST]) {
      assert.deepEqual(await entries(dir, prefix), await entries(straight, prefix), `prefix ${prefix}`);
    }
  });

  it("a listed tx included again leaves its old chunk, and a rolled-back height its chunks", async () => {
    const dir = freshDir();
    await withIndex(dir, async (indexer) => {
      await indexer.indexHeight(height(1n, ["a", "b", "c"]));
      await indexer.indexHeight(height(2n, ["d", "b"]));
      const got = await search(indexer, "app.creator = 'Cosmoshi Netowoko'");
      assert.deepEqual(got, { total: 4, txs: ["a", "c", "d", "b"] });
      assert.equal((await search(indexer, "app.key = 'b' AND app.index_key = 'index is working'")).total, 1);
      assert.equal((await search(indexer, "tx.height = 1 AND app.creator = 'Cosmoshi Netowoko'")).total, 2);
      await indexer.removeHeight(2n, [
        sha256(new TextEncoder().encode("d")),
        sha256(new TextEncoder().encode("b")),
      ]);
      assert.deepEqual(await search(indexer, "app.creator = 'Cosmoshi Netowoko'"), {
        total: 2,
        txs: ["a", "c"],
      });
    });
    // Height 1's chunks hold a and c; height 2's are gone.
    const lists = await entries(dir, PREFIX_TX_EVENT_LIST);
    assert.equal(lists.length, 2);
    for (const [, value] of lists) assert.equal(value, "00000000" + "00020000");
  });

  it("an empty height above every stored height asks the databases nothing", async () => {
    const dir = freshDir();
    const db = await openBinaryLevel(join(dir, "index"));
    const bodies = await openBinaryLevel(join(dir, "bodies"));
    try {
      const indexer = await EventIndexer.open(db, { bodies });
      await indexer.indexHeight(height(1n, ["a"]));
      const asked = spy(db, bodies);
      await indexer.indexHeight(height(2n, []));
      assert.deepEqual(asked, { reads: 0, walks: 0 });
      // A height the bodies' database may hold keys of (start-up repair): its stray bodies are sought.
      await indexer.indexHeight(height(2n, []));
      assert.deepEqual(asked, { reads: 0, walks: 1 });
    } finally {
      await db.close();
      await bodies.close();
    }
  });
});

/** Counts the index's reads of homes and the bodies' key walks, from now on. */
function spy(db: BinaryLevel, bodies: BinaryLevel): { reads: number; walks: number } {
  const asked = { reads: 0, walks: 0 };
  const getMany = db.getMany.bind(db);
  const keys = bodies.keys.bind(bodies);
  Object.assign(db, {
    getMany: (...args: Parameters<typeof getMany>) => {
      asked.reads++;
      return getMany(...args);
    },
  });
  Object.assign(bodies, {
    keys: (...args: Parameters<typeof keys>) => {
      asked.walks++;
      return keys(...args);
    },
  });
  return asked;
}
