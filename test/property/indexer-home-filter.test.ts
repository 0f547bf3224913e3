// The tx index with its home filter (home-filter.ts) answers exactly as without it: random heights
// of txs drawn from a small pool, so txs are committed again at later heights (and twice in one
// height), indexed into three indexes: without a filter, with one from an empty index, and with one
// opened over an index built without it and filled a few keys at a time while heights keep coming.
// Every tx of the pool (and names never committed) is asked by hash and by tx_search: the same
// position or none in all three. The filters are tiny, so some answer "maybe" and some "absent".
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import fc from "fast-check";
import { EventIndexer, type HomeFilterFill } from "../../src/store/indexer/event-indexer.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { hashOf, keyedHeight, positionsFound } from "../integration/indexer-tx-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-home-filter-"));
after(() => rmSync(root, { recursive: true, force: true }));

const POOL = Array.from({ length: 14 }, (_, i) => `t${i}`);
const NEVER = ["never-1", "never-2", "never-3"];
const heightsArb = fc.array(fc.array(fc.constantFrom(...POOL), { maxLength: 7 }), {
  minLength: 1,
  maxLength: 9,
});

async function answers(indexer: EventIndexer): Promise<string[]> {
  const out: string[] = [];
  for (const name of [...POOL, ...NEVER]) {
    const byHash = await indexer.txs.getByHash(hashOf(name));
    const found = await positionsFound(indexer, `app.key = '${name}'`);
    out.push(
      `${name}: ${byHash === undefined ? "-" : `${byHash.height}/${byHash.index}`} ${JSON.stringify(found.map(([h, i]) => `${h}/${i}`))}`,
    );
  }
  return out;
}

it("finds by hash and by tx_search exactly what the index without the filter finds", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      heightsArb,
      fc.integer({ min: 1, max: 16 }),
      fc.nat(),
      async (heights, filterBytes, split) => {
        const dir = join(root, `r${run++}`);
        const open = async (name: string) => ({
          db: await openBinaryLevel(join(dir, name)),
          bodies: await openBinaryLevel(join(dir, `${name}-bodies`)),
        });
        const plain = await open("plain");
        const fresh = await open("fresh");
        const later = await open("later");
        const dbs = [plain, fresh, later];
        try {
          const withoutFilter = await EventIndexer.open(plain.db, { bodies: plain.bodies });
          const fromEmpty = await EventIndexer.open(fresh.db, {
            bodies: fresh.bodies,
            homeFilterBytes: filterBytes,
          });
          assert.equal(
            fromEmpty.homeFilterState()?.complete,
            true,
            "an empty index's filter is complete at open",
          );
          // The third index: its first heights without a filter, then reopened with one and filled
          // two keys a step, a height indexed between the steps.
          const cut = split % (heights.length + 1);
          let filled = await EventIndexer.open(later.db, { bodies: later.bodies });
          let filling: Promise<HomeFilterFill> | undefined;
          for (const [h, names] of heights.entries()) {
            const input = keyedHeight(BigInt(h + 1), names);
            if (h === cut) {
              filled = await EventIndexer.open(later.db, {
                bodies: later.bodies,
                homeFilterBytes: filterBytes,
              });
              let steps = 0;
              filling = filled.fillHomeFilter(async (work) => {
                // Each read waits a turn, so heights are indexed while the fill is under way.
                if (steps++ > 0) await new Promise((r) => setImmediate(r));
                return work();
              }, 2);
            }
            await Promise.all([
              withoutFilter.indexHeight(input),
              fromEmpty.indexHeight(input),
              filled.indexHeight(input),
            ]);
          }
          const fill = await filling;
          if (fill !== undefined) {
            assert.equal(filled.homeFilterState()?.complete, true, "the fill completes");
            // "none" when the reopened index held no homes yet: complete at open.
            assert.ok(fill.outcome === "complete" || fill.outcome === "none", fill.outcome);
          }
          const want = await answers(withoutFilter);
          assert.deepEqual(await answers(fromEmpty), want, "the filter from an empty index");
          assert.deepEqual(await answers(filled), want, "the filter filled over an existing index");
        } finally {
          for (const { db, bodies } of dbs) {
            await db.close();
            await bodies.close();
          }
          rmSync(dir, { recursive: true, force: true });
        }
      },
    ),
    { numRuns: 40 },
  );
});
