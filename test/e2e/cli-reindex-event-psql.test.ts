// `rxbft reindex-event` with [tx_index] indexer = "psql" against a real PostgreSQL server (a
// cluster this file starts): after a node committed txs into PostgreSQL and the tables were
// dropped, the command recreates the schema and writes every height again, so SQL and the psql
// search back end find every tx; a second run duplicates no row; a run from the last height
// alone fills the heights below it too (the psql index is contiguous from the base).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { sha256 } from "../../src/crypto/hash.js";
import { createLogger } from "../../src/logger/index.js";
import { parseQuery } from "../../src/query/parser.js";
import { openStores } from "../../src/store/open-stores.js";
import { type PostgresCluster, startPostgresCluster } from "../system/postgres-cluster.js";
import { runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

const TXS = 40;

let cluster: PostgresCluster;
before(async () => {
  cluster = await startPostgresCluster();
});
after(async () => {
  killAllNodes();
  await cluster?.destroy();
});

const txHash = (tx: string) =>
  Buffer.from(sha256(Buffer.from(tx)))
    .toString("hex")
    .toUpperCase();

/** Row counts of every index table: what a second run must leave unchanged. */
async function rowCounts(db: pg.Pool): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ["blocks", "tx_results", "events", "attributes"]) {
    counts[table] = (await db.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
  }
  return counts;
}

test("reindex-event rebuilds a dropped PostgreSQL index; a second run duplicates nothing", {
  timeout: 90_000,
}, async () => {
  const url = await cluster.createDatabase("reindex");
  const db = new pg.Pool({ connectionString: url, max: 2 });
  db.on("error", () => {});
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-reindex-psql-");
  const configFile = join(home, "config", "config.toml");
  writeFileSync(
    configFile,
    readFileSync(configFile, "utf8")
      .replace(/^indexer = .*$/m, 'indexer = "psql"')
      .replace(/^psql-conn = .*$/m, `psql-conn = "${url}"`),
  );
  const chainId = (
    JSON.parse(readFileSync(join(home, "config", "genesis.json"), "utf8")) as { chain_id: string }
  ).chain_id;
  const txs = Array.from({ length: TXS }, (_, i) => `psqlre${i}=value${i}`);
  try {
    const node = new NodeProcess(home);
    try {
      await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the RPC server");
      for (let i = 0; i < TXS; i += 10) {
        await Promise.all(txs.slice(i, i + 10).map((tx) => node.rpc(`/broadcast_tx_sync?tx="${tx}"`)));
      }
      await node.waitFor(() => node.committed.reduce((n, c) => n + c.txs, 0) >= TXS, "every tx committed");
      node.kill("SIGINT");
      assert.equal((await node.exited).code, 0, node.output.slice(-2000));
    } finally {
      node.kill("SIGKILL");
    }
    const written = await rowCounts(db);
    assert.equal(written.tx_results, TXS, "the node indexed every tx");

    // The index is lost: the tables go, reindex-event recreates them.
    await db.query("DROP TABLE attributes, events, tx_results, blocks CASCADE");
    const out = await runCli(["reindex-event", "--home", home]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`^Re-indexed (\\d+) heights \\(${TXS} txs\\)\\.$`, "m"));
    const heights = Number(/^Re-indexed (\d+) heights/m.exec(out.stdout)![1]);
    const rebuilt = await rowCounts(db);
    assert.deepEqual(rebuilt, written, "the rebuilt tables hold what the node wrote");
    const blocks = await db.query(
      "SELECT count(*)::int AS n, min(height)::int AS lo, max(height)::int AS hi FROM blocks WHERE chain_id = $1",
      [chainId],
    );
    assert.deepEqual(
      blocks.rows[0],
      { n: heights, lo: 1, hi: heights },
      "every height once, with the chain id",
    );
    const inSql = await db.query<{ tx_hash: string }>("SELECT tx_hash FROM tx_results");
    assert.deepEqual(inSql.rows.map((r) => r.tx_hash).sort(), txs.map(txHash).sort(), "every tx in SQL once");

    // Idempotent: heights already present are left as they are.
    const again = await runCli(["reindex_event", "--home", home]);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(await rowCounts(db), written, "a second run adds no row");

    // Only the last height asked for, PostgreSQL empty: the psql index stays contiguous from
    // the base (as the node keeps it), so the heights below are written too before the command ends.
    await db.query("DROP TABLE attributes, events, tx_results, blocks CASCADE");
    const last = await runCli(["reindex-event", "--home", home, "--start-height", String(heights)]);
    assert.equal(last.code, 0, last.stderr);
    assert.match(last.stdout, /^Re-indexed 1 heights \(\d+ txs\)\.$/m);
    assert.deepEqual(await rowCounts(db), written, "every height is back, each once");

    // The psql search back end (what tx and tx_search read) finds every tx.
    const logger = createLogger({ level: "error", format: "json", destination: { write: () => {} } });
    const stores = await openStores(join(home, "data"), {
      indexer: "psql",
      psql: { conn: url, chainId, logger },
    });
    try {
      for (const tx of txs) {
        const found = await stores.txIndexer.getByHash(Buffer.from(txHash(tx), "hex"));
        assert.ok(found, `tx ${tx} found by hash`);
        assert.equal(Buffer.from(found.tx).toString(), tx);
      }
      const all = await stores.txIndexer.search({
        conditions: parseQuery("tx.height >= 1").conditions,
        page: 1,
        perPage: 100,
        order: "asc",
      });
      assert.equal(all.total, TXS);
      assert.deepEqual(all.txs.map((t) => Buffer.from(t.tx).toString()).sort(), [...txs].sort());
      const byKey = await stores.txIndexer.search({
        conditions: parseQuery("app.key = 'psqlre7'").conditions,
        page: 1,
        perPage: 10,
        order: "asc",
      });
      assert.equal(byKey.total, 1, "found by its event");
    } finally {
      await stores.close();
    }
  } finally {
    await db.end();
  }
});
