// The kv indexer never hands LevelDB a zero-length value: classic-level 3.0 leaks the native copy
// of every empty key or value it writes (~32 bytes of malloc'd memory each), which grew the main
// arena linearly with the txs committed (issue 19, item 4; docs/storage.md "Memory"). Event
// entries written empty by earlier versions must still answer every search the same.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import type { Event } from "../../src/wire/generated/tendermint/abci/types.js";
import { attribute, indexedTx } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-entry-values-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;

const ev = (type: string, attrs: [string, string][]): Event => ({
  type,
  attributes: attrs.map(([k, v]) => attribute(k, v, true)),
});

const tx = indexedTx;

function height(h: bigint): HeightIndexInput {
  return {
    height: h,
    txs: [0, 1, 2].map((i) =>
      tx(`tx-${h}-${i}`, [
        ev("app", [
          ["key", `k${i}`],
          ["creator", h % 2n === 0n ? "even" : "odd"],
        ]),
        ev("transfer", [["amount", String(Number(h) * 10 + i)]]),
      ]),
    ),
    beginBlockEvents: [ev("reward", [["validator", h % 2n === 0n ? "even" : "odd"]])],
    endBlockEvents: [ev("end", [["round", String(h)]])],
  };
}

// Written in the form before event lists (a key per occurrence), as the versions that wrote empty
// values did; the default form's list values are never empty either (the first test).
async function indexed(
  eventListThreshold = Number.POSITIVE_INFINITY,
): Promise<{ db: BinaryLevel; indexer: EventIndexer }> {
  const db = await openBinaryLevel(join(root, `db${dbCount++}`));
  const indexer = await EventIndexer.open(db, { eventListThreshold });
  for (let h = 1n; h <= 6n; h++) await indexer.indexHeight(height(h));
  return { db, indexer };
}

const TX_QUERIES = [
  "app.key = 'k1'",
  "app.creator = 'even' AND transfer.amount > 30",
  "tx.height >= 2 AND tx.height <= 4 AND app.key = 'k2'",
  "transfer.amount EXISTS",
  "app.key CONTAINS 'k'",
];
const BLOCK_QUERIES = ["reward.validator = 'odd'", "end.round > 2 AND reward.validator = 'even'"];

async function answers(indexer: EventIndexer) {
  const txs = [];
  for (const q of TX_QUERIES) {
    const r = await indexer.txs.search({
      conditions: parseQuery(q).conditions,
      page: 1,
      perPage: 100,
      order: "asc",
    });
    txs.push({
      q,
      total: r.total,
      txs: r.txs.map((t) => [t.height, t.index, new TextDecoder().decode(t.tx)]),
    });
  }
  const blocks = [];
  for (const q of BLOCK_QUERIES) {
    const r = await indexer.blocks.search({
      conditions: parseQuery(q).conditions,
      page: 1,
      perPage: 100,
      order: "asc",
    });
    blocks.push({ q, total: r.total, heights: r.heights });
  }
  return { txs, blocks };
}

describe("kv indexer entry values", () => {
  it("writes no zero-length value, for tx and block event entries alike", async () => {
    const { db } = await indexed(2);
    let entries = 0;
    for await (const [key, value] of db.iterator()) {
      entries++;
      assert.ok(value.length > 0, `zero-length value under key ${Buffer.from(key).toString("hex")}`);
    }
    // 6 heights × (3 txs × (result, position, 3 tx entries + tx.height/tx.hash when indexed) + block entries)
    assert.ok(entries > 6 * 3 * 5, `only ${entries} entries written`);
    await db.close();
  });

  it("answers tx_search and block_search the same over event entries written empty (older versions)", async () => {
    const { db, indexer } = await indexed();
    const before = await answers(indexer);
    assert.ok(
      before.txs.every((a) => a.total > 0) && before.blocks.every((a) => a.total > 0),
      "queries hit nothing",
    );
    // Rewrite every one-byte value (the event entries) empty, as versions before this one wrote them.
    const rewrites: { type: "put"; key: Uint8Array; value: Uint8Array }[] = [];
    for await (const [key, value] of db.iterator()) {
      if (value.length === 1) rewrites.push({ type: "put", key, value: new Uint8Array(0) });
    }
    assert.ok(rewrites.length > 6 * 3 * 3, `only ${rewrites.length} event entries found`);
    await db.batch(rewrites);
    assert.deepEqual(await answers(indexer), before);
    await db.close();
  });
});
