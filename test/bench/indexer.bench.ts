// tx_search figures over 100,000 indexed txs (10 heights of 10,000), beside a same-run
// baseline: the search without an index, i.e. one pass over every stored TxResult, decoding
// each and matching it within events (what answering the query would cost with no event index).
// Queries: one attribute value held by 100 txs (page 1 of 30, total counted), one held by a
// single tx, and the same value AND-ed with a second condition of the same event.
// Bounded in count and time; never fails on time. Writes bench-results/indexer.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { compileDocumentMatcher, TX_DOCUMENT } from "../../src/store/indexer/event-match.js";
import { PREFIX_TX_BODY } from "../../src/store/indexer/index-keys.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { transferHeight } from "../fixtures/store/chain-fixture.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "indexer-bench-"));
const HEIGHTS = 10;
const PER_HEIGHT = 10_000;
const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const db = await openBinaryLevel(join(dir, "tx_index.db"));
const indexer = await EventIndexer.open(db);
let built = performance.now();
for (let h = 1; h <= HEIGHTS; h++) await indexer.indexHeight(transferHeight(h, PER_HEIGHT));
built = performance.now() - built;

const queries = {
  "transfer.sender = 'acct42' (100 txs)": "transfer.sender = 'acct42'",
  "transfer.id = '77777' (1 tx)": "transfer.id = '77777'",
  "transfer.sender = 'acct42' AND transfer.amount = 0 (same event)":
    "transfer.sender = 'acct42' AND transfer.amount = 0",
};

async function fullScan(query: string): Promise<number> {
  const matcher = compileDocumentMatcher(parseQuery(query).conditions, TX_DOCUMENT);
  let total = 0;
  const values = db.values({ gte: Uint8Array.of(PREFIX_TX_BODY), lt: Uint8Array.of(PREFIX_TX_BODY + 1) });
  for (let chunk = await values.nextv(1000); chunk.length > 0; chunk = await values.nextv(1000)) {
    for (const value of chunk) {
      const r = TxResult.decode(value);
      if (matcher({ height: r.height, events: r.result.events })) total++;
    }
  }
  await values.close();
  return total;
}

const figures: Record<string, { ours_ms: number; full_scan_ms: number; ratio: number; total: number }> = {};
for (const [label, query] of Object.entries(queries)) {
  const conditions = parseQuery(query).conditions;
  const ours: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    total = (await indexer.txs.search({ conditions, page: 1, perPage: 30, order: "asc" })).total;
    ours.push(performance.now() - t);
  }
  // One pass: the full scan costs the same for every query and takes a second or more.
  const t = performance.now();
  const scanned = await fullScan(query);
  const b = performance.now() - t;
  if (scanned !== total) throw new Error(`index found ${total}, full scan ${scanned} for ${query}`);
  const o = median(ours);
  figures[label] = { ours_ms: o, full_scan_ms: b, ratio: o / b, total };
  console.log(
    `tx_search ${label}: ${o.toFixed(2)} ms vs full scan ${b.toFixed(0)} ms (×${(o / b).toFixed(4)}), total ${total}`,
  );
}
console.log(`(indexing ${HEIGHTS * PER_HEIGHT} txs took ${(built / 1000).toFixed(1)} s)`);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(
  join(root, "bench-results/indexer.json"),
  `${JSON.stringify({ indexed_txs: HEIGHTS * PER_HEIGHT, index_build_ms: built, queries: figures }, null, 2)}\n`,
);
await db.close();
rmSync(dir, { recursive: true, force: true });
