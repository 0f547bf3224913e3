// Keys and bytes per tx that the kv index writes to tx_index.db for kvstore-shaped heights (the
// kvstore's DeliverTx event: `app.creator` and `app.index_key` the same in every tx, `app.key`
// unique), with event lists (the default) and in the form before them (a key per occurrence), by
// key prefix: what a tx costs the memtable and every compaction that rewrites it.
//   TXK_HEIGHTS=4 TXK_TXS=10000 node --import tsx test/bench/tx-index-keys-per-tx.ts
// Counts, not times: never fails on time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { IndexedTx } from "../../src/store/indexer/height-index-input.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { kvstoreDeliverTx } from "../fixtures/store/chain-fixture.js";

const HEIGHTS = Number(process.env.TXK_HEIGHTS ?? 4);
const TXS = Number(process.env.TXK_TXS ?? 10_000);
const utf8 = new TextEncoder();

function kvTx(height: number, i: number): IndexedTx {
  // As the load bench's wrk script makes them: `<run>-<thread>-<n>=vvv…`, 100 bytes.
  const key = `r${height}-1-${i}`;
  const tx = utf8.encode(`${key}=${"v".repeat(99 - key.length)}`);
  return { tx, result: kvstoreDeliverTx(key) };
}

const dir = mkdtempSync(join(tmpdir(), "tx-index-keys-"));
try {
  for (const [form, threshold] of [
    ["lists", 2],
    ["a key per occurrence", Number.POSITIVE_INFINITY],
  ] as const) {
    const db = await openBinaryLevel(join(dir, `${threshold}-index`));
    const bodies = await openBinaryLevel(join(dir, `${threshold}-bodies`));
    const indexer = await EventIndexer.open(db, { bodies, eventListThreshold: threshold });
    for (let h = 1; h <= HEIGHTS; h++) {
      const txs = Array.from({ length: TXS }, (_, i) => kvTx(h, i));
      await indexer.indexHeight({ height: BigInt(h), txs, beginBlockEvents: [], endBlockEvents: [] });
    }
    const byPrefix = new Map<number, { keys: number; bytes: number }>();
    for await (const [key, value] of db.iterator()) {
      const row = byPrefix.get(key[0]!) ?? { keys: 0, bytes: 0 };
      row.keys++;
      row.bytes += key.length + value.length;
      byPrefix.set(key[0]!, row);
    }
    const txs = HEIGHTS * TXS;
    let keys = 0;
    let bytes = 0;
    const rows = [...byPrefix].sort(([a], [b]) => a - b);
    for (const [, row] of rows) {
      keys += row.keys;
      bytes += row.bytes;
    }
    console.log(
      `${form}: tx_index.db ${(keys / txs).toFixed(3)} keys and ${(bytes / txs).toFixed(1)} bytes (key + value) per tx; ` +
        rows
          .map(
            ([prefix, row]) =>
              `0x${prefix.toString(16).padStart(2, "0")} ${(row.keys / txs).toFixed(3)} keys ${(row.bytes / txs).toFixed(1)} B`,
          )
          .join(", "),
    );
    await db.close();
    await bodies.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
