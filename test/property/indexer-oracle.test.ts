// The search executor (probing, key-only checks, document checks, paging) must give exactly
// what the pure matcher gives when run over every indexed tx: random indexes, random queries.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import fc from "fast-check";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { BLOCK_DOCUMENT, compileDocumentMatcher, TX_DOCUMENT } from "../../src/store/indexer/event-match.js";
import type { IndexedTx } from "../../src/store/indexer/height-index-input.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import type { Event } from "../../src/wire/generated/tendermint/abci/types.js";
import { eventArbitrary } from "../fixtures/event-arbitrary.js";
import { queryArbitrary } from "../fixtures/query-arbitrary.js";
import { indexedTx } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-oracle-"));
after(() => rmSync(root, { recursive: true, force: true }));

const TYPES = ["a", "b"];
const KEYS = ["x", "y"];
const VALUES = ["1", "2", "10", "a1", "2024-01-02"];

const eventArb = eventArbitrary({ types: TYPES, keys: KEYS, values: VALUES });
const heightArb = fc.record({
  txs: fc.array(fc.array(eventArb, { maxLength: 3 }), { maxLength: 6 }),
  begin: fc.array(eventArb, { maxLength: 2 }),
  end: fc.array(eventArb, { maxLength: 2 }),
});
const heightsArb = fc.array(heightArb, { minLength: 1, maxLength: 6 });

const queryArb = queryArbitrary({
  types: TYPES,
  keys: KEYS,
  values: VALUES,
  fixed: ["a EXISTS", "tm.event = 'Tx'", "b.x >= DATE 2024-01-01"],
});

it("agrees with the pure matcher over every tx and block, for totals, order and pages", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      heightsArb,
      fc.array(queryArb, { minLength: 5, maxLength: 10 }),
      async (heights, queries) => {
        const db = await openBinaryLevel(join(root, `db${run++}`));
        try {
          const indexer = await EventIndexer.open(db);
          const all: { height: bigint; index: number; events: Event[] }[] = [];
          const blocks: { height: bigint; events: Event[] }[] = [];
          for (const [h, { txs: txEvents, begin, end }] of heights.entries()) {
            const height = BigInt(h + 1);
            blocks.push({ height, events: [...begin, ...end] });
            const txs: IndexedTx[] = txEvents.map((events, index) => {
              all.push({ height, index, events });
              return indexedTx(`${height}/${index}`, events);
            });
            await indexer.indexHeight({ height, txs, beginBlockEvents: begin, endBlockEvents: end });
          }
          for (const text of queries) {
            const conditions = parseQuery(text).conditions;
            const matcher = compileDocumentMatcher(conditions, TX_DOCUMENT);
            const expected = all
              .filter((t) => matcher({ height: t.height, events: t.events }))
              .map((t) => `${t.height}/${t.index}`);
            for (const order of ["asc", "desc"] as const) {
              const want = order === "asc" ? expected : [...expected].reverse();
              const perPage = 4;
              const pages = Math.max(1, Math.ceil(want.length / perPage));
              const page = 1 + (text.length % pages);
              const got = await indexer.txs.search({ conditions, page, perPage, order });
              assert.equal(got.total, want.length, `total for ${text}`);
              const labels = got.txs.map((t) => new TextDecoder().decode(t.tx));
              assert.deepEqual(
                labels,
                want.slice((page - 1) * perPage, page * perPage),
                `page ${page} (${order}) of ${text}`,
              );
            }
            // The same query over block events, with tx.height read as block.height.
            const blockConditions = parseQuery(text.replaceAll("tx.height", "block.height")).conditions;
            const blockMatcher = compileDocumentMatcher(blockConditions, BLOCK_DOCUMENT);
            const wantHeights = blocks.filter((b) => blockMatcher(b)).map((b) => b.height);
            const gotBlocks = await indexer.blocks.search({
              conditions: blockConditions,
              page: 1,
              perPage: 100,
              order: "desc",
            });
            assert.equal(gotBlocks.total, wantHeights.length, `block total for ${text}`);
            assert.deepEqual(gotBlocks.heights, wantHeights.reverse(), `block heights for ${text}`);
          }
        } finally {
          await db.close();
        }
      },
    ),
    { numRuns: 40 },
  );
});
