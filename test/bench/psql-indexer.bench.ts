// The psql indexer's figures against a real PostgreSQL server (a cluster this bench starts),
// each beside a baseline measured in the same run:
//   - a 10,000-tx height's index time and rows/s (ours, end to end: rows built and hashed, one transaction, ON CONFLICT on the
//     block, ids reserved, INSERT ... SELECT FROM unnest) vs a raw multi-row INSERT ... VALUES of
//     the same rows into the same tables (in a second schema), one transaction, nothing else;
//   - tx_search latency from PostgreSQL vs the kv indexer holding the same chain.
// Bounded: HEIGHTS heights of 10,000 txs, RUNS runs per query. Never fails on time.
// Writes bench-results/psql-indexer.json.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { createLogger } from "../../src/logger/index.js";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { type HeightRows, heightRows } from "../../src/store/indexer/psql/psql-height-writer.js";
import { PsqlIndexer } from "../../src/store/indexer/psql/psql-indexer.js";
import { SCHEMA_STATEMENTS } from "../../src/store/indexer/psql/psql-schema.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { transferHeight } from "../fixtures/store/chain-fixture.js";
import { startPostgresCluster } from "../system/postgres-cluster.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const HEIGHTS = 3;
const PER_HEIGHT = 10_000;
const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function height(h: number): HeightIndexInput {
  return transferHeight(h, PER_HEIGHT);
}

const rowCount = (rows: HeightRows) =>
  1 + rows.txs.index.length + rows.events.type.length + rows.attributes.key.length;

/** The baseline: the same rows as plain multi-row INSERT ... VALUES, ids from a counter. */
async function rawInsert(client: pg.PoolClient, rows: HeightRows, chainId: string, ids: { next: number }) {
  const insert = async (table: string, columns: string[], values: unknown[][]) => {
    const per = Math.floor(60_000 / columns.length);
    for (let start = 0; start < values.length; start += per) {
      const chunk = values.slice(start, start + per);
      const params: unknown[] = [];
      const tuples = chunk.map((row) => `(${row.map((v) => `$${params.push(v)}`).join(",")})`);
      await client.query(`INSERT INTO ${table} (${columns.join(",")}) VALUES ${tuples.join(",")}`, params);
    }
  };
  await client.query("BEGIN");
  const blockId = ids.next++;
  await insert(
    "blocks",
    ["rowid", "height", "chain_id", "created_at"],
    [[blockId, rows.height.toString(), chainId, new Date()]],
  );
  const txIds = rows.txs.index.map(() => ids.next++);
  const now = new Date();
  await insert(
    "tx_results",
    ["rowid", "block_id", "index", "created_at", "tx_hash", "tx_result"],
    rows.txs.index.map((index, i) => [txIds[i], blockId, index, now, rows.txs.hash[i], rows.txs.result[i]]),
  );
  const eventIds = rows.events.type.map(() => ids.next++);
  await insert(
    "events",
    ["rowid", "block_id", "tx_id", "type"],
    rows.events.type.map((type, i) => [
      eventIds[i],
      blockId,
      rows.events.tx[i]! < 0 ? null : txIds[rows.events.tx[i]!],
      type,
    ]),
  );
  await insert(
    "attributes",
    ["event_id", "key", "composite_key", "value"],
    rows.attributes.key.map((key, i) => [
      eventIds[rows.attributes.event[i]!],
      key,
      rows.attributes.compositeKey[i],
      rows.attributes.value[i],
    ]),
  );
  await client.query("COMMIT");
}

const cluster = await startPostgresCluster();
const dir = mkdtempSync(join(tmpdir(), "psql-indexer-bench-"));
const quiet = createLogger({ level: "none", destination: { write() {} } });
try {
  const inputs = Array.from({ length: HEIGHTS }, (_, i) => height(i + 1));
  const psql = await PsqlIndexer.open({
    conn: cluster.url,
    chainId: "bench",
    logger: quiet,
    baseHeight: () => 1n,
    loadHeight: async (h) => inputs[Number(h) - 1],
    liveWriteTimeoutMs: 600_000,
  });
  const pool = new pg.Pool({ connectionString: cluster.url, max: 1 });
  const client = await pool.connect();
  await client.query("CREATE SCHEMA raw");
  await client.query("SET search_path TO raw");
  for (const statement of SCHEMA_STATEMENTS) await client.query(statement);

  const ours: number[] = [];
  const raw: number[] = [];
  const ids = { next: 1 };
  let rows = 0;
  for (const input of inputs) {
    const t = performance.now();
    await psql.indexHeight(input);
    ours.push(performance.now() - t);
    const prepared = heightRows(input);
    rows = rowCount(prepared);
    const r = performance.now();
    await rawInsert(client, prepared, "bench", ids);
    raw.push(performance.now() - r);
  }
  if (psql.indexedHeight() !== BigInt(HEIGHTS))
    throw new Error("the psql indexer did not index every height");
  const o = median(ours);
  const b = median(raw);
  console.log(
    `index a ${PER_HEIGHT}-tx height (${rows} rows): ${o.toFixed(0)} ms (${Math.round((rows * 1000) / o)} rows/s) vs raw multi-row INSERT ${b.toFixed(0)} ms (${Math.round((rows * 1000) / b)} rows/s), ×${(o / b).toFixed(2)}`,
  );

  const kvDb = await openBinaryLevel(join(dir, "tx_index.db"));
  const kv = await EventIndexer.open(kvDb);
  for (const input of inputs) await kv.indexHeight(input);
  const queries = {
    "transfer.sender = 'acct42' (30 txs)": "transfer.sender = 'acct42'",
    "transfer.id = '17777' (1 tx)": "transfer.id = '17777'",
    "transfer.sender = 'acct42' AND transfer.amount = 0 (same event)":
      "transfer.sender = 'acct42' AND transfer.amount = 0",
    "tx.height = 2 (10,000 txs, page 1 of 100)": "tx.height = 2",
  };
  const searches: Record<string, { psql_ms: number; kv_ms: number; ratio: number; total: number }> = {};
  for (const [label, query] of Object.entries(queries)) {
    const conditions = parseQuery(query).conditions;
    const request = { conditions, page: 1, perPage: 100, order: "asc" as const };
    const p: number[] = [];
    const k: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      total = (await psql.txs.search(request)).total;
      p.push(performance.now() - t);
      const u = performance.now();
      const kvTotal = (await kv.txs.search(request)).total;
      k.push(performance.now() - u);
      if (kvTotal !== total) throw new Error(`psql found ${total}, kv ${kvTotal} for ${query}`);
    }
    searches[label] = { psql_ms: median(p), kv_ms: median(k), ratio: median(p) / median(k), total };
    console.log(
      `tx_search ${label}: psql ${median(p).toFixed(2)} ms vs kv ${median(k).toFixed(2)} ms (×${(median(p) / median(k)).toFixed(2)}), total ${total}`,
    );
  }
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(
    join(root, "bench-results/psql-indexer.json"),
    `${JSON.stringify(
      {
        height_txs: PER_HEIGHT,
        height_rows: rows,
        index_height_ms: o,
        raw_insert_ms: b,
        ratio: o / b,
        rows_per_s: (rows * 1000) / o,
        raw_rows_per_s: (rows * 1000) / b,
        tx_search: searches,
      },
      null,
      2,
    )}\n`,
  );
  client.release();
  await pool.end();
  await psql.close();
  await kvDb.close();
} finally {
  await cluster.destroy();
  rmSync(dir, { recursive: true, force: true });
}
