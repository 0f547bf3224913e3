// A pair repeated within a height is written as list chunks (index-keys.ts, event-lists.ts), and a
// search must not tell: over random heights, each written in the form before lists (threshold
// Infinity), with lists (thresholds 1 and 2) or in a mix (a height re-indexed in another form, as
// start-up repair after an upgrade does; a pair evicted from its candidates and listed again
// within one height), with txs included again (moved) and the last height rolled back, every
// query answers exactly as the same history written in the old form: totals, order, pages,
// same-event conditions, tx.height ranges and budget errors.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import fc from "fast-check";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { PREFIX_TX_EVENT, PREFIX_TX_EVENT_LIST } from "../../src/store/indexer/index-keys.js";
import type { SearchBudget } from "../../src/store/indexer/search-executor.js";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import type { Event } from "../../src/wire/generated/tendermint/abci/types.js";
import { eventArbitrary } from "../fixtures/event-arbitrary.js";
import { queryArbitrary } from "../fixtures/query-arbitrary.js";
import { indexedTx } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-event-lists-"));
after(() => rmSync(root, { recursive: true, force: true }));

const TYPES = ["a", "b"];
const KEYS = ["x", "y"];
// More values than a composite key keeps candidates (4), so some heights evict and list again.
const VALUES = ["1", "2", "10", "a1", "2024-01-02", "z", "5", "b"];
const LABELS = ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11"];
const FORMS = [Number.POSITIVE_INFINITY, 1, 2];

const eventArb = eventArbitrary({ types: TYPES, keys: KEYS, values: VALUES });
const heightArb = fc.record({
  // Labels from a small pool: a tx is sometimes included again (a move), even in one block.
  txs: fc.array(fc.tuple(fc.constantFrom(...LABELS), fc.array(eventArb, { maxLength: 3 })), {
    maxLength: 10,
  }),
  form: fc.constantFrom(...FORMS),
  // Indexed a second time in this form (start-up repair of a height already written).
  reindexForm: fc.option(fc.constantFrom(...FORMS), { nil: undefined }),
});
const historyArb = fc.record({
  heights: fc.array(heightArb, { minLength: 1, maxLength: 6 }),
  rollBackLast: fc.boolean(),
});
type History = typeof historyArb extends fc.Arbitrary<infer T> ? T : never;
const queryArb = queryArbitrary({
  types: TYPES,
  keys: KEYS,
  values: VALUES,
  fixed: ["a EXISTS", "tm.event = 'Tx'", "a.x = '1' AND a.y = '2'", "b.x = 'z' AND b.y = 'z'"],
});

const SMALL_BUDGET: SearchBudget = { maxScanEntries: 12, maxVerifiedDocuments: 1_000 };

function inputOf(h: number, txs: [string, Event[]][]): HeightIndexInput {
  return {
    height: BigInt(h),
    txs: txs.map(([label, events]) => indexedTx(label, events)),
    beginBlockEvents: [],
    endBlockEvents: [],
  };
}

interface Index {
  db: BinaryLevel;
  bodies: BinaryLevel;
}

async function write(index: Index, history: History, old: boolean): Promise<void> {
  const open = (threshold: number) =>
    EventIndexer.open(index.db, {
      bodies: index.bodies,
      eventListThreshold: old ? Number.POSITIVE_INFINITY : threshold,
    });
  for (const [i, height] of history.heights.entries()) {
    const input = inputOf(i + 1, height.txs);
    await (await open(height.form)).indexHeight(input);
    if (height.reindexForm !== undefined) await (await open(height.reindexForm)).indexHeight(input);
  }
  if (history.rollBackLast) {
    const last = history.heights.length;
    const input = inputOf(last, history.heights[last - 1]!.txs);
    await (await open(2)).removeHeight(
      BigInt(last),
      input.txs.map((t) => sha256(t.tx)),
    );
  }
}

async function answer(indexer: EventIndexer, text: string, page: number, order: "asc" | "desc") {
  const conditions = parseQuery(text).conditions;
  try {
    const got = await indexer.txs.search({ conditions, page, perPage: 3, order });
    return {
      total: got.total,
      txs: got.txs.map((t) => `${t.height}/${t.index}/${new TextDecoder().decode(t.tx)}`),
    };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

async function countKeys(db: BinaryLevel, prefix: number): Promise<number> {
  return (await db.keys({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) }).all()).length;
}

let run = 0;
const openIndex = async (): Promise<Index> => {
  const at = join(root, `run${run++}`);
  return { db: await openBinaryLevel(`${at}-tx_index.db`), bodies: await openBinaryLevel(`${at}-bodies.db`) };
};

it("answers every query over lists, the old form and their mixes as over the old form", async () => {
  let listed = 0;
  await fc.assert(
    fc.asyncProperty(
      historyArb,
      fc.array(queryArb, { minLength: 4, maxLength: 8 }),
      async (history, queries) => {
        const reference = await openIndex();
        const candidate = await openIndex();
        try {
          await write(reference, history, true);
          await write(candidate, history, false);
          assert.equal(await countKeys(reference.db, PREFIX_TX_EVENT_LIST), 0, "the old form wrote a list");
          listed += await countKeys(candidate.db, PREFIX_TX_EVENT_LIST);
          const want = await EventIndexer.open(reference.db, { bodies: reference.bodies });
          const got = await EventIndexer.open(candidate.db, { bodies: candidate.bodies });
          // Budget errors are compared only where no height holds a pair in both forms (a height
          // re-indexed in another form keeps the first form's keys beside the second's, so a walk
          // reads more entries there; its answers are still the same).
          const sameWalks = history.heights.every((h) => h.reindexForm === undefined);
          const small = sameWalks
            ? {
                want: await EventIndexer.open(reference.db, {
                  bodies: reference.bodies,
                  budget: SMALL_BUDGET,
                }),
                got: await EventIndexer.open(candidate.db, {
                  bodies: candidate.bodies,
                  budget: SMALL_BUDGET,
                }),
              }
            : undefined;
          for (const text of queries) {
            for (const order of ["asc", "desc"] as const) {
              for (const page of [1, 2]) {
                const expected = await answer(want, text, page, order);
                assert.deepEqual(
                  await answer(got, text, page, order),
                  expected,
                  `${text} page ${page} ${order}`,
                );
              }
            }
            if (small !== undefined) {
              assert.deepEqual(
                await answer(small.got, text, 1, "asc"),
                await answer(small.want, text, 1, "asc"),
                `${text} with a budget of ${SMALL_BUDGET.maxScanEntries} entries`,
              );
            }
          }
          if (history.rollBackLast) {
            // A rolled-back height leaves no entry of either form.
            const last = BigInt(history.heights.length);
            for (const prefix of [PREFIX_TX_EVENT, PREFIX_TX_EVENT_LIST]) {
              for (const key of await candidate.db
                .keys({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) })
                .all()) {
                const height = Buffer.from(key).readBigUInt64BE(
                  key.length - (prefix === PREFIX_TX_EVENT ? 16 : 12),
                );
                assert.notEqual(
                  height,
                  last,
                  `a ${prefix === PREFIX_TX_EVENT ? "key" : "list"} left at the rolled-back height`,
                );
              }
            }
          }
        } finally {
          for (const index of [reference, candidate]) {
            await index.db.close();
            await index.bodies.close();
          }
        }
      },
    ),
    { numRuns: 60 },
  );
  assert.ok(listed > 0, "no run wrote a list");
});
