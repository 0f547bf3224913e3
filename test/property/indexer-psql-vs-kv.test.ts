// The psql indexer answers tx, tx_search and block_search exactly as the kv indexer does: the
// same random chains go into both (a real PostgreSQL server, one chain_id per run, so runs in
// one database also prove searches read only their chain's rows), then random queries compare
// totals, pages in both orders, page errors, and tx by hash, including txs committed twice.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, it } from "node:test";
import fc from "fast-check";
import { sha256 } from "../../src/crypto/hash.js";
import { createLogger } from "../../src/logger/index.js";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { PsqlIndexer } from "../../src/store/indexer/psql/psql-indexer.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import type { Event } from "../../src/wire/generated/tendermint/abci/types.js";
import { queryArbitrary } from "../fixtures/query-arbitrary.js";
import { attribute, bytes, indexedTx } from "../fixtures/store/chain-fixture.js";
import { type PostgresCluster, startPostgresCluster } from "../system/postgres-cluster.js";

const root = mkdtempSync(join(tmpdir(), "indexer-psql-vs-kv-"));
let cluster: PostgresCluster;
before(async () => {
  cluster = await startPostgresCluster();
});
after(async () => {
  await cluster?.destroy();
  rmSync(root, { recursive: true, force: true });
});
const quiet = createLogger({ level: "none", destination: { write() {} } });

const TYPES = ["a", "b"];
const KEYS = ["x", "y", "z"];
const VALUES = ["1", "2", "10", "a1", "2024-01-02"];

// One event lists a key once (v0.34's attributes table holds (event_id, key) once).
const eventArb: fc.Arbitrary<Event> = fc.record({
  type: fc.constantFrom(...TYPES),
  attributes: fc
    .uniqueArray(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), fc.boolean()), {
      minLength: 1,
      maxLength: 3,
      selector: ([k]) => k,
    })
    .map((list) => list.map(([k, v, noIndex]) => attribute(k, v, !noIndex || k === "x"))),
});
const heightArb = fc.record({
  txs: fc.array(fc.tuple(fc.array(eventArb, { maxLength: 3 }), fc.nat(9)), { maxLength: 5 }),
  begin: fc.array(eventArb, { maxLength: 2 }),
  end: fc.array(eventArb, { maxLength: 2 }),
});
const heightsArb = fc.array(heightArb, { minLength: 1, maxLength: 6 });

const queryArb = queryArbitrary({
  types: TYPES,
  keys: KEYS,
  values: VALUES,
  fixed: ["a EXISTS", "tm.event = 'Tx'", "tm.event = 'NewBlock'", "b.x >= DATE 2024-01-01"],
});

const SPLIT_EVENTS: Event[] = [
  { type: "a", attributes: [attribute("x", "1"), attribute("y", "10")] },
  { type: "a", attributes: [attribute("y", "2")] },
];
const FIXED_QUERIES = [
  "a.x = '1' AND a.y = '2'",
  "a.x = '1' AND a.y = '10'",
  "a.y = '2' AND a.x = '1' AND tx.height <= 3",
];

const label = (tx: Uint8Array) => new TextDecoder().decode(tx);
const outcome = async <T>(work: () => Promise<T>): Promise<T | { error: string }> => {
  try {
    return await work();
  } catch (error) {
    return { error: `${(error as { code?: string }).code}: ${(error as Error).message}` };
  }
};

it("answers every query, page, order and hash exactly as the kv indexer", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      heightsArb,
      fc.array(queryArb, { minLength: 4, maxLength: 8 }),
      async (heights, queries) => {
        run++;
        const db = await openBinaryLevel(join(root, `db${run}`));
        const inputs: HeightIndexInput[] = [];
        const labels: string[] = [];
        // Every chain holds a tx whose a.x = '1' and a.y = '2' sit in different events, and
        // every run asks for them in one event: the same-event check must tell them apart.
        heights[0]!.txs.unshift([SPLIT_EVENTS, 1]);
        queries.push(...FIXED_QUERIES);
        // Some txs repeat an earlier one (a tx committed twice): both indexes keep the latest.
        heights.forEach(({ txs, begin, end }, h) => {
          const height = BigInt(h + 1);
          inputs.push({
            height,
            beginBlockEvents: begin,
            endBlockEvents: end,
            txs: txs.map(([events, reuse], index) => {
              const text =
                reuse === 0 && labels.length > 0 ? labels[labels.length - 1]! : `${height}/${index}`;
              labels.push(text);
              return indexedTx(text, events);
            }),
          });
        });
        const psql = await PsqlIndexer.open({
          conn: cluster.url,
          chainId: `compare-${run}`,
          logger: quiet,
          baseHeight: () => 1n,
          loadHeight: async (h) => inputs[Number(h) - 1],
        });
        try {
          const kv = await EventIndexer.open(db);
          for (const input of inputs) {
            await kv.indexHeight(input);
            await psql.indexHeight(input);
          }
          assert.equal(psql.indexedHeight(), BigInt(inputs.length));
          for (const text of new Set(labels)) {
            const hash = sha256(bytes(text));
            const [k, p] = [await kv.txs.getByHash(hash), await psql.txs.getByHash(hash)];
            assert.deepEqual(p && [p.height, p.index], k && [k.height, k.index], `tx ${text}`);
          }
          for (const text of queries) {
            const conditions = parseQuery(text).conditions;
            for (const order of ["asc", "desc"] as const) {
              for (const page of [1, 2, 9]) {
                const request = { conditions, page, perPage: 3, order };
                const want = await outcome(async () => {
                  const r = await kv.txs.search(request);
                  return { total: r.total, txs: r.txs.map((t) => `${label(t.tx)}@${t.height}.${t.index}`) };
                });
                const got = await outcome(async () => {
                  const r = await psql.txs.search(request);
                  return { total: r.total, txs: r.txs.map((t) => `${label(t.tx)}@${t.height}.${t.index}`) };
                });
                assert.deepEqual(got, want, `tx_search ${text} page ${page} ${order}`);
              }
            }
            const blockConditions = parseQuery(text.replaceAll("tx.height", "block.height")).conditions;
            for (const page of [1, 2]) {
              const request = { conditions: blockConditions, page, perPage: 2, order: "desc" as const };
              const want = await outcome(() => kv.blocks.search(request));
              const got = await outcome(() => psql.blocks.search(request));
              assert.deepEqual(got, want, `block_search ${text} page ${page}`);
            }
          }
        } finally {
          await psql.close();
          await db.close();
        }
      },
    ),
    // No shrinking: each run costs a real chain in PostgreSQL; the counterexample is printed whole.
    { numRuns: 25, endOnFailure: true },
  );
});
