// The psql indexer against a real PostgreSQL server (a cluster this file starts): the v0.34
// schema created on first open, rows as v0.34 writes them, one transaction per height and
// idempotent writes, catch-up of the heights PostgreSQL lacks, a clear error naming psql-conn
// (never the password) when the server is unreachable at start, and a server lost while
// running: indexing never blocks, searches fail naming the indexer, nothing is lost.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { sha256 } from "../../src/crypto/hash.js";
import { createLogger } from "../../src/logger/index.js";
import { parseQuery } from "../../src/query/parser.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { PsqlIndexer, type PsqlIndexerOptions } from "../../src/store/indexer/psql/psql-indexer.js";
import { TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { attribute, bytes, indexedTx } from "../fixtures/store/chain-fixture.js";
import { type PostgresCluster, startPostgresCluster } from "../system/postgres-cluster.js";

let cluster: PostgresCluster;
let sql: pg.Pool;
before(async () => {
  cluster = await startPostgresCluster();
  sql = new pg.Pool({ connectionString: cluster.url, max: 2 });
  sql.on("error", () => {});
});
after(async () => {
  await sql?.end();
  await cluster?.destroy();
});

const lines: string[] = [];
const logger = createLogger({
  level: "debug",
  format: "json",
  destination: { write: (t: string) => lines.push(t) },
});

function heightInput(height: bigint, txCount: number, tag = "t"): HeightIndexInput {
  return {
    height,
    beginBlockEvents: [{ type: "begin", attributes: [attribute("k", `b${height}`)] }],
    endBlockEvents: [{ type: "", attributes: [attribute("lost", "1")] }],
    txs: Array.from({ length: txCount }, (_, index) =>
      indexedTx(`${tag}-${height}-${index}`, [
        {
          type: "transfer",
          attributes: [attribute("to", `acct${index}`), attribute("memo", "secret", false)],
        },
      ]),
    ),
  };
}

function open(
  chainId: string,
  inputs: Map<bigint, HeightIndexInput>,
  extra: Partial<PsqlIndexerOptions> = {},
) {
  return PsqlIndexer.open({
    conn: cluster.url,
    chainId,
    logger,
    baseHeight: () => 1n,
    loadHeight: async (h) => inputs.get(h),
    retryMinMs: 100,
    retryMaxMs: 300,
    connectTimeoutMs: 2_000,
    ...extra,
  });
}

async function counts(chainId: string) {
  const r = await sql.query(
    `SELECT (SELECT count(*) FROM blocks WHERE chain_id = $1)::int AS blocks,
      (SELECT count(*) FROM tx_results t JOIN blocks b ON b.rowid = t.block_id WHERE b.chain_id = $1)::int AS txs,
      (SELECT count(*) FROM events e JOIN blocks b ON b.rowid = e.block_id WHERE b.chain_id = $1)::int AS events`,
    [chainId],
  );
  return r.rows[0] as { blocks: number; txs: number; events: number };
}

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe("schema and rows", () => {
  it("creates v0.34's tables and views on first open, and opens again over them", async () => {
    const first = await open("schema", new Map());
    await first.close();
    const second = await open("schema", new Map());
    await second.close();
    const r = await sql.query(
      "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    assert.deepEqual(
      r.rows.map((row) => `${row.table_name}:${row.table_type}`),
      [
        "attributes:BASE TABLE",
        "block_events:VIEW",
        "blocks:BASE TABLE",
        "event_attributes:VIEW",
        "events:BASE TABLE",
        "tx_events:VIEW",
        "tx_results:BASE TABLE",
      ],
    );
  });

  it("writes a height as v0.34 does: chain_id, hex hash, TxResult bytes, meta events, indexed attributes only", async () => {
    const input = heightInput(7n, 2);
    const indexer = await open("rows", new Map([[7n, input]]), { baseHeight: () => 7n });
    try {
      await indexer.indexHeight(input);
      const block = await sql.query("SELECT height::int, chain_id FROM blocks WHERE chain_id = 'rows'");
      assert.deepEqual(block.rows, [{ height: 7, chain_id: "rows" }]);
      const txs = await sql.query(
        "SELECT index, tx_hash, tx_result FROM tx_results t JOIN blocks b ON b.rowid = t.block_id WHERE b.chain_id = 'rows' ORDER BY index",
      );
      assert.equal(txs.rows.length, 2);
      const hash0 = Buffer.from(sha256(bytes("t-7-0")))
        .toString("hex")
        .toUpperCase();
      assert.equal(txs.rows[0].tx_hash, hash0);
      const decoded = TxResult.decode(txs.rows[1].tx_result);
      assert.equal(decoded.height, 7n);
      assert.equal(decoded.index, 1);
      assert.equal(new TextDecoder().decode(decoded.tx), "t-7-1");
      const blockEvents = await sql.query(
        "SELECT type, key, composite_key, value FROM block_events WHERE chain_id = 'rows' ORDER BY composite_key",
      );
      // The empty-type end-block event is skipped, as v0.34 skips it.
      assert.deepEqual(blockEvents.rows, [
        { type: "begin", key: "k", composite_key: "begin.k", value: "b7" },
        { type: "block", key: "height", composite_key: "block.height", value: "7" },
      ]);
      const txEvents = await sql.query(
        "SELECT composite_key, value FROM tx_events WHERE chain_id = 'rows' AND index = 0 ORDER BY composite_key",
      );
      // memo (index=false) is not stored.
      assert.deepEqual(txEvents.rows, [
        { composite_key: "transfer.to", value: "acct0" },
        { composite_key: "tx.hash", value: hash0 },
        { composite_key: "tx.height", value: "7" },
      ]);
    } finally {
      await indexer.close();
    }
  });

  it("writing a height again, or from a second indexer, duplicates nothing", async () => {
    const inputs = new Map([1n, 2n].map((h) => [h, heightInput(h, 3)]));
    const a = await open("twice", inputs);
    await a.indexHeight(inputs.get(1n)!);
    await a.indexHeight(inputs.get(2n)!);
    await a.indexHeight(inputs.get(2n)!);
    await a.close();
    const b = await open("twice", inputs);
    assert.equal(b.indexedHeight(), 2n);
    await b.indexHeight(inputs.get(1n)!);
    await b.catchUp(2n);
    await b.close();
    assert.deepEqual(await counts("twice"), { blocks: 2, txs: 6, events: 2 * (2 + 3 * 3) });
  });
});

describe("long values", () => {
  it("writes a 10,000-character value and an overlong key without stalling, and finds the value", async () => {
    const long = "v".repeat(9_999) + "!";
    const input: HeightIndexInput = {
      height: 1n,
      beginBlockEvents: [],
      endBlockEvents: [],
      txs: [
        indexedTx("long", [
          { type: "big", attributes: [attribute("v", long), attribute("k".repeat(2_000), "x")] },
        ]),
      ],
    };
    const indexer = await open("long", new Map([[1n, input]]));
    try {
      await indexer.indexHeight(input);
      assert.equal(indexer.indexedHeight(), 1n);
      // Built as conditions: query text is capped at 512 bytes, a value is not.
      const search = (op: "=" | "CONTAINS", value: string) =>
        indexer.txs.search({
          conditions: [{ key: "big.v", op, operand: { kind: "string", value } }],
          page: 1,
          perPage: 10,
          order: "asc",
        });
      assert.equal((await search("=", long)).total, 1);
      assert.equal((await search("=", "v".repeat(10_000))).total, 0, "same prefix, other value");
      assert.equal((await search("CONTAINS", "!")).total, 1);
    } finally {
      await indexer.close();
    }
  });
});

describe("catch-up", () => {
  it("indexes the heights a crash left out, from the stores, in batches, and skips those present", async () => {
    const inputs = new Map(
      Array.from({ length: 12 }, (_, i) => [BigInt(i + 1), heightInput(BigInt(i + 1), 2)]),
    );
    const a = await open("crash", inputs);
    for (const h of [1n, 2n, 3n]) await a.indexHeight(inputs.get(h)!);
    await a.close();
    // A height present past a hole (rows written by another writer): the hole is found.
    const c = await open("crash", inputs);
    await c.indexHeight(inputs.get(3n)!);
    await c.close();
    await sql.query(
      "DELETE FROM attributes WHERE event_id IN (SELECT e.rowid FROM events e JOIN blocks b ON b.rowid = e.block_id WHERE b.chain_id = 'crash' AND b.height = 2)",
    );
    await sql.query(
      "DELETE FROM events WHERE block_id IN (SELECT rowid FROM blocks WHERE chain_id = 'crash' AND height = 2)",
    );
    await sql.query(
      "DELETE FROM tx_results WHERE block_id IN (SELECT rowid FROM blocks WHERE chain_id = 'crash' AND height = 2)",
    );
    await sql.query("DELETE FROM blocks WHERE chain_id = 'crash' AND height = 2");
    lines.length = 0;
    const b = await open("crash", inputs, { catchUpBatch: 4 });
    assert.equal(b.indexedHeight(), 1n);
    const findings = await b.catchUp(12n);
    assert.match(findings.join("\n"), /indexed heights 2\.\.12/);
    assert.equal(b.indexedHeight(), 12n);
    assert.deepEqual(await counts("crash"), { blocks: 12, txs: 24, events: 12 * (2 + 2 * 3) });
    const progress = lines.filter((l) => l.includes("psql indexer: progress"));
    assert.equal(progress.length, 3, "11 heights in batches of 4");
    const found = await b.txs.search({
      conditions: parseQuery("tx.height >= 1").conditions,
      page: 1,
      perPage: 100,
      order: "asc",
    });
    assert.equal(found.total, 24);
    await b.close();
  });
});

describe("PostgreSQL unreachable", () => {
  it("at start: an error naming psql-conn, never the password", async () => {
    const closedPort = cluster.url.replace(`:${cluster.port}/`, ":1/");
    await assert.rejects(
      PsqlIndexer.open({
        conn: closedPort,
        chainId: "x",
        logger,
        baseHeight: () => 1n,
        loadHeight: async () => undefined,
      }),
      (error: Error) => {
        assert.match(error.message, /\[tx_index\] psql-conn/);
        assert.match(error.message, /postgresql:\/\/rxbft:\*\*\*@127\.0\.0\.1:1\/rxbft/);
        assert.ok(!error.message.includes(cluster.password), "password not in the message");
        return true;
      },
    );
    const wrongPassword = cluster.url.replace(cluster.password, "not-the-password");
    await assert.rejects(
      PsqlIndexer.open({
        conn: wrongPassword,
        chainId: "x",
        logger,
        baseHeight: () => 1n,
        loadHeight: async () => undefined,
      }),
      (error: Error) => {
        assert.match(error.message, /psql-conn.*password authentication failed/);
        assert.ok(!error.message.includes("not-the-password"));
        return true;
      },
    );
    await assert.rejects(
      PsqlIndexer.open({
        conn: "host=127.0.0.1 password=x",
        chainId: "x",
        logger,
        baseHeight: () => 1n,
        loadHeight: async () => undefined,
      }),
      /psql-conn is not a URL/,
    );
  });

  it("while running: indexing goes on without it, searches name the indexer, every height arrives once it is back", async () => {
    const inputs = new Map(
      Array.from({ length: 8 }, (_, i) => [BigInt(i + 1), heightInput(BigInt(i + 1), 2, "lost")]),
    );
    const indexer = await open("lost", inputs);
    const search = () =>
      indexer.txs.search({
        conditions: parseQuery("transfer.to = 'acct1'").conditions,
        page: 1,
        perPage: 100,
        order: "asc",
      });
    try {
      for (const h of [1n, 2n]) await indexer.indexHeight(inputs.get(h)!);
      assert.equal((await search()).total, 2);
      lines.length = 0;
      await cluster.stopServer();
      const started = Date.now();
      for (const h of [3n, 4n, 5n, 6n]) await indexer.indexHeight(inputs.get(h)!);
      assert.ok(Date.now() - started < 3_000, "indexing did not wait for the server");
      await assert.rejects(search(), (error: Error & { code?: string }) => {
        assert.equal(error.code, "INDEX_UNAVAILABLE");
        assert.match(error.message, /psql indexer/);
        assert.ok(!error.message.includes(cluster.password));
        return true;
      });
      await assert.rejects(indexer.txs.getByHash(sha256(bytes("lost-1-0"))), /psql indexer/);
      assert.ok(lines.some((l) => l.includes("PostgreSQL is unreachable")));
      assert.ok(!lines.some((l) => l.includes(cluster.password)), "password never logged");
      await cluster.startServer();
      for (const h of [7n, 8n]) await indexer.indexHeight(inputs.get(h)!);
      await until("catch-up to 8", () => indexer.indexedHeight() === 8n);
      assert.equal((await search()).total, 8);
      assert.deepEqual(await counts("lost"), { blocks: 8, txs: 16, events: 8 * (2 + 2 * 3) });
      assert.ok(lines.some((l) => l.includes("PostgreSQL answers again")));
      assert.ok(lines.some((l) => l.includes("psql indexer: caught up")));
    } finally {
      await indexer.close();
    }
  });

  it("during the start-up catch-up: the start goes on, the rest is indexed once it is back", async () => {
    const inputs = new Map(
      Array.from({ length: 6 }, (_, i) => [BigInt(i + 1), heightInput(BigInt(i + 1), 1, "startup")]),
    );
    let stopped = false;
    const indexer = await open("startup", new Map(), {
      catchUpBatch: 2,
      loadHeight: async (h) => {
        if (h === 3n && !stopped) {
          stopped = true;
          await cluster.stopServer();
        }
        return inputs.get(h);
      },
    });
    try {
      const findings = await indexer.catchUp(6n);
      assert.match(
        findings.join("\n"),
        /psql index at 2 of 6: the rest is indexed when PostgreSQL answers again/,
      );
      await cluster.startServer();
      await until("catch-up to 6", () => indexer.indexedHeight() === 6n);
      assert.deepEqual(await counts("startup"), { blocks: 6, txs: 6, events: 6 * (2 + 3) });
    } finally {
      if (stopped) await cluster.startServer().catch(() => {});
      await indexer.close();
    }
  });

  it("closes promptly while PostgreSQL is down (a node stopping then does not wait for it)", async () => {
    const inputs = new Map([[1n, heightInput(1n, 1, "close")]]);
    const indexer = await open("close", inputs, { retryMinMs: 5_000, retryMaxMs: 5_000 });
    await cluster.stopServer();
    try {
      await indexer.indexHeight(inputs.get(1n)!);
      await until("the indexer to notice", () => indexer.unavailable() !== undefined);
      const started = Date.now();
      await indexer.close();
      assert.ok(Date.now() - started < 4_000, `close took ${Date.now() - started} ms`);
    } finally {
      await cluster.startServer();
    }
  });
});
