// A node with [tx_index] indexer = "psql" against a real PostgreSQL server (a cluster this file
// starts, one database per test): 10,000 txs committed while the server is stopped and started
// again are all in SQL once and all found by tx_search; a node killed (SIGKILL) while a height's
// transaction is open in PostgreSQL loses and duplicates nothing after its restart.
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { sha256 } from "../../src/crypto/hash.js";
import { openStores } from "../../src/store/open-stores.js";
import { type PostgresCluster, startPostgresCluster } from "../system/postgres-cluster.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

let cluster: PostgresCluster;
before(async () => {
  cluster = await startPostgresCluster();
});
after(async () => {
  killAllNodes();
  await cluster?.destroy();
});

async function psqlHome(url: string, timeoutCommit: string): Promise<string> {
  const home = await initFastHome({ timeout_commit: timeoutCommit }, "rxbft-psql-");
  const file = join(home, "config", "config.toml");
  let text = readFileSync(file, "utf8");
  text = text
    .replace(/^indexer = .*$/m, 'indexer = "psql"')
    .replace(/^psql-conn = .*$/m, `psql-conn = "${url}"`);
  writeFileSync(file, text);
  return home;
}

async function rpc(url: string, method: string, params: Record<string, unknown>) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as {
    result?: Record<string, unknown>;
    error?: { message: string; data?: string };
  };
}

/** Sends txs `key<i>=value<i>` for i in [from, to) with broadcast_tx_sync, `inFlight` at a time. */
async function sendTxs(
  url: string,
  from: number,
  to: number,
  inFlight: number,
  label = "key",
): Promise<void> {
  let next = from;
  const one = async (i: number) => {
    const tx = Buffer.from(`${label}${i}=value${i}`).toString("base64");
    for (let attempt = 0; attempt < 400; attempt++) {
      const body = await rpc(url, "broadcast_tx_sync", { tx });
      if (body.result) return;
      assert.match(JSON.stringify(body.error), /mempool is full/, `tx ${i}: ${JSON.stringify(body.error)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`tx ${i} never admitted`);
  };
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < to) await one(next++);
    }),
  );
}

/** What the node's stores hold (the node must be stopped): every tx's latest position by hash. */
async function storedTxs(home: string): Promise<{ height: bigint; txs: Map<string, string> }> {
  const stores = await openStores(join(home, "data"), { indexer: "null" });
  const txs = new Map<string, string>();
  try {
    const height = stores.blockStore.height();
    for (let h = 1n; h <= height; h++) {
      const block = await stores.blockStore.loadBlock(h);
      block!.data.txs.forEach((tx, index) => {
        txs.set(Buffer.from(sha256(tx)).toString("hex").toUpperCase(), `${h}/${index}`);
      });
    }
    return { height, txs };
  } finally {
    await stores.close();
  }
}

/** The index in SQL equals the stores: heights 1..height once each, every tx once at its place. */
async function assertIndexMatchesStores(db: pg.Pool, home: string): Promise<number> {
  const stored = await storedTxs(home);
  const blocks = await db.query(
    "SELECT count(*)::int AS n, min(height)::int AS lo, max(height)::int AS hi FROM blocks",
  );
  assert.deepEqual(
    blocks.rows[0],
    { n: Number(stored.height), lo: 1, hi: Number(stored.height) },
    "every height once",
  );
  const rows = await db.query(
    "SELECT t.tx_hash, b.height::text AS height, t.index FROM tx_results t JOIN blocks b ON b.rowid = t.block_id",
  );
  assert.equal(rows.rows.length, stored.txs.size, "every tx once");
  for (const row of rows.rows) {
    assert.equal(`${row.height}/${row.index}`, stored.txs.get(row.tx_hash), `tx ${row.tx_hash}`);
  }
  const duplicates = await db.query(
    "SELECT count(*)::int AS n FROM (SELECT block_id FROM events WHERE tx_id IS NULL GROUP BY block_id, type HAVING count(*) > 1 AND type = 'block') d",
  );
  assert.equal(duplicates.rows[0].n, 0, "one block.height meta event per height");
  return stored.txs.size;
}

test("10,000 txs: all in SQL and found by tx_search, with PostgreSQL stopped and started mid-run", {
  timeout: 300_000,
}, async () => {
  const TXS = 10_000;
  const url = await cluster.createDatabase("run_10k");
  const db = new pg.Pool({ connectionString: url, max: 2 });
  db.on("error", () => {});
  const home = await psqlHome(url, "200ms");
  const node = new NodeProcess(home);
  try {
    await node.waitFor(
      () => node.rpcUrl !== undefined && node.height >= 1n,
      "the RPC server and a first block",
    );
    const rpcUrl = node.rpcUrl!;
    await sendTxs(rpcUrl, 0, 3_000, 64);
    // PostgreSQL goes away: blocks keep coming, searches answer an error naming the indexer.
    await cluster.stopServer();
    const heightAtStop = node.height;
    const sending = sendTxs(rpcUrl, 3_000, 6_000, 64);
    await node.waitFor(() => node.height >= heightAtStop + 3n, "blocks while PostgreSQL is down");
    const refused = await rpc(rpcUrl, "tx_search", { query: "tx.height >= 1", page: "1", per_page: "1" });
    assert.match(JSON.stringify(refused.error), /psql indexer.*PostgreSQL is unreachable/);
    await sending;
    await cluster.startServer();
    await sendTxs(rpcUrl, 6_000, TXS, 64);
    const committed = () => node.committed.reduce((n, c) => n + c.txs, 0);
    await node.waitFor(() => committed() >= TXS, `${TXS} committed txs`, 120_000);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const n = (await db.query("SELECT count(*)::int AS n FROM tx_results")).rows[0].n;
      if (n >= TXS) break;
      assert.ok(Date.now() < deadline, `the index has ${n} of ${TXS} txs after a minute`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Every tx by tx_search (paged over the whole chain), and a sample by hash and by event.
    const found = new Set<string>();
    for (let page = 1; ; page++) {
      const body = await rpc(rpcUrl, "tx_search", {
        query: "tx.height >= 1",
        page: String(page),
        per_page: "100",
        order_by: "asc",
      });
      const result = body.result as { txs: { hash: string }[]; total_count: string };
      assert.ok(result, JSON.stringify(body.error));
      assert.equal(Number(result.total_count), TXS);
      for (const tx of result.txs) found.add(tx.hash.toUpperCase());
      if (page * 100 >= TXS) break;
    }
    assert.equal(found.size, TXS, "tx_search finds every tx");
    for (let i = 0; i < TXS; i += 1_111) {
      const hash = Buffer.from(sha256(Buffer.from(`key${i}=value${i}`)))
        .toString("hex")
        .toUpperCase();
      assert.ok(found.has(hash), `key${i} found`);
      const byEvent = await rpc(rpcUrl, "tx_search", { query: `app.key = 'key${i}'` });
      assert.equal(Number((byEvent.result as { total_count: string }).total_count), 1, `app.key = 'key${i}'`);
      const byHash = await rpc(rpcUrl, "tx", { hash: Buffer.from(hash, "hex").toString("base64") });
      assert.ok(byHash.result, `tx ${hash}: ${JSON.stringify(byHash.error)}`);
    }
    const blocks = await rpc(rpcUrl, "block_search", { query: "block.height >= 2 AND block.height <= 6" });
    const blockResult = blocks.result as {
      blocks: { block: { header: { height: string } } }[];
      total_count: string;
    };
    assert.equal(Number(blockResult?.total_count), 5, JSON.stringify(blocks.error));
    assert.deepEqual(
      blockResult.blocks.map((b) => Number(b.block.header.height)),
      [6, 5, 4, 3, 2],
      "block_search from PostgreSQL, newest first",
    );
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
    assert.match(node.output, /PostgreSQL answers again/);
    assert.equal(await assertIndexMatchesStores(db, home), TXS);
  } finally {
    node.kill("SIGKILL");
    await db.end();
  }
});

test("kill -9 while a height's transaction is open in PostgreSQL loses and duplicates nothing", {
  timeout: 240_000,
}, async () => {
  const url = await cluster.createDatabase("run_kill");
  const db = new pg.Pool({ connectionString: url, max: 2 });
  db.on("error", () => {});
  // A second between blocks lets heights grow to hundreds of txs: their transactions stay open long.
  const home = await psqlHome(url, "1s");
  let sent = 0;
  let behind = 0;
  let kills = 0;
  try {
    // Until a kill has left PostgreSQL a height behind the stores (at most 6 kills): the
    // restart then has a height to repair.
    for (let cycle = 0; cycle < 6 && behind === 0; cycle++) {
      const node = new NodeProcess(home);
      await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the RPC server and a block");
      const rpcUrl = node.rpcUrl!;
      // Large heights make each index transaction long enough to be caught open.
      let sending = true;
      const load = (async () => {
        while (sending) {
          await sendTxs(rpcUrl, sent, sent + 500, 32, `c${cycle}k`).catch(() => {
            sending = false;
          });
          sent += 500;
        }
      })();
      const deadline = Date.now() + 60_000;
      let caught = false;
      while (!caught && Date.now() < deadline) {
        // Caught in its tx_results or events INSERT, the height's transaction still has the
        // attributes INSERT and COMMIT ahead: the kill lands before it commits.
        const open = await db.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE application_name = 'rxbft' AND datname = current_database()
             AND state = 'active' AND query ~ '^\\s*INSERT INTO (tx_results|events)'`,
        );
        if (open.rows[0].n > 0) {
          node.kill("SIGKILL");
          caught = true;
          kills++;
        }
      }
      sending = false;
      await load;
      assert.ok(caught, "a height's transaction was seen open in PostgreSQL");
      await node.exited;
      const stored = (await storedTxs(home)).height;
      const indexed = (await db.query("SELECT coalesce(max(height), 0)::int AS h FROM blocks")).rows[0].h;
      if (BigInt(indexed) < stored) behind++;
      console.log(`# after kill ${kills}: stores at height ${stored}, PostgreSQL at ${indexed}`);
    }
    assert.ok(behind > 0, "a kill left PostgreSQL behind the stores");
    console.log(`# ${kills} kill(s) until one left PostgreSQL a height behind the stores`);
    // A last start repairs the height the kill left unindexed, then commits more.
    const node = new NodeProcess(home);
    await node.waitFor(() => node.height >= 2n, "blocks after the restart");
    assert.match(node.output, /psql index at \d+, stores at \d+: indexed heights/);
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
    const txs = await assertIndexMatchesStores(db, home);
    assert.ok(txs > 0, "txs were indexed");
  } finally {
    killAllNodes();
    await db.end();
  }
});

test("PostgreSQL unreachable at start: the node exits with an error naming psql-conn, never the password", {
  timeout: 60_000,
}, async () => {
  const closed = cluster.url.replace(`:${cluster.port}/`, ":1/");
  const home = await psqlHome(closed, "200ms");
  const node = new NodeProcess(home);
  const exit = await node.exited;
  assert.notEqual(exit.code, 0);
  assert.match(
    node.output,
    /\[tx_index\] psql-conn: cannot use PostgreSQL at postgresql:\/\/rxbft:\*\*\*@127\.0\.0\.1:1\/rxbft/,
  );
  assert.ok(!node.output.includes(cluster.password), "the password is not printed");
});
