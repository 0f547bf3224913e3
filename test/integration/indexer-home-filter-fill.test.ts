// How the home filter's background fill ends (event-indexer.ts fillHomeFilter) and what the node
// logs of it (streams/boot/stores.ts logHomeFilterFill): an operator of a large index learns when
// the filter answers, or that it never will this run.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { createLogger } from "../../src/logger/index.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { logHomeFilterFill } from "../../streams/boot/stores.js";
import { keyedHeight } from "./indexer-tx-fixture.js";

const root = mkdtempSync(join(tmpdir(), "rxbft-home-fill-"));
after(() => rmSync(root, { recursive: true, force: true }));

/**
 * Runs `body` on an index of `heights` heights of three txs each, written without a filter, then
 * reopened with one; closes the databases after, whatever `body` does.
 */
async function withIndexOfHomes(
  name: string,
  heights: number,
  body: (filtered: EventIndexer) => Promise<void>,
): Promise<void> {
  const db = await openBinaryLevel(join(root, name));
  const bodies = await openBinaryLevel(join(root, `${name}-bodies`));
  try {
    const plain = await EventIndexer.open(db, { bodies });
    for (let h = 1; h <= heights; h++)
      await plain.indexHeight(keyedHeight(BigInt(h), [`a${h}`, `b${h}`, `c${h}`]));
    await body(await EventIndexer.open(db, { bodies, homeFilterBytes: 64 }));
  } finally {
    await db.close();
    await bodies.close();
  }
}

it("a fill reads every home key and says so; the filter answers from then on", async () => {
  await withIndexOfHomes("complete", 5, async (filtered) => {
    assert.equal(filtered.homeFilterState()?.complete, false, "not answering before the fill");
    const fill = await filtered.fillHomeFilter(undefined, 4);
    assert.deepEqual(fill, { outcome: "complete", keys: 15 });
    assert.equal(filtered.homeFilterState()?.complete, true);
  });
});

it("a fill whose read fails says so, and the filter keeps reading every home", async () => {
  await withIndexOfHomes("failed", 3, async (filtered) => {
    let reads = 0;
    const fill = await filtered.fillHomeFilter(async (work) => {
      if (reads++ === 1) throw new Error("disk on fire");
      return work();
    }, 2);
    assert.equal(fill.outcome, "failed");
    assert.equal(fill.keys, 2, "the keys of the one read that succeeded");
    assert.match(String((fill.error as Error).message), /disk on fire/);
    assert.equal(filtered.homeFilterState()?.complete, false);
  });
});

it("a fill stopped by a closing node says it stopped", async () => {
  await withIndexOfHomes("stopped", 3, async (filtered) => {
    const filling = filtered.fillHomeFilter(async (work) => {
      await new Promise((r) => setImmediate(r));
      return work();
    }, 1);
    await filtered.stopHomeFilterFill();
    const fill = await filling;
    assert.equal(fill.outcome, "stopped");
    assert.ok(fill.keys < 9, `stopped before the end (${fill.keys} of 9 keys)`);
  });
});

it("the node logs a completed fill at info and a failed one at error, and nothing else", () => {
  const lines: string[] = [];
  const log = createLogger({
    level: "info",
    format: "json",
    destination: { write: (t: string) => lines.push(t) },
  });
  logHomeFilterFill(log, { outcome: "complete", keys: 1200000, ms: 4100 });
  logHomeFilterFill(log, { outcome: "failed", keys: 4096, ms: 30, error: new Error("disk on fire") });
  logHomeFilterFill(log, { outcome: "none", keys: 0, ms: 0 });
  logHomeFilterFill(log, { outcome: "stopped", keys: 10, ms: 5 });
  assert.equal(lines.length, 2, lines.join(""));
  const [done, failed] = lines.map((l) => JSON.parse(l));
  assert.equal(done.level, "info");
  assert.match(done._msg, /home filter filled/);
  assert.equal(done.keys, 1200000);
  assert.equal(failed.level, "error");
  assert.match(failed._msg, /not filled/);
  assert.equal(failed.err, "disk on fire");
});
