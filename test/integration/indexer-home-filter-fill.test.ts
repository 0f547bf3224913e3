// How the home filter's background fill ends (event-indexer.ts fillHomeFilter) and what the node
// logs of it (streams/boot/stores.ts logHomeFilterFill): an operator of a large index learns when
// the filter answers, or that it never will this run; and when the filter is crowded
// (logHomeFilterCrowded), so its size can be raised before lookups slow the index.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { createLogger } from "../../src/logger/index.js";
import { EventIndexer, type HomeFilterState } from "../../src/store/indexer/event-indexer.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { logHomeFilterCrowded, logHomeFilterFill } from "../../streams/boot/stores.js";
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

it("an index whose home filter gets crowded says so once, and the node warns with what to raise", async () => {
  const db = await openBinaryLevel(join(root, "crowded"));
  const bodies = await openBinaryLevel(join(root, "crowded-bodies"));
  try {
    const told: HomeFilterState[] = [];
    // 64 bytes: crowded (5 % false positives) at the 82nd key; three txs a height.
    const indexer = await EventIndexer.open(db, {
      bodies,
      homeFilterBytes: 64,
      onHomeFilterCrowded: (state) => told.push(state),
    });
    for (let h = 1; h <= 27; h++)
      await indexer.indexHeight(keyedHeight(BigInt(h), [`a${h}`, `b${h}`, `c${h}`]));
    assert.equal(told.length, 0, "81 keys: not yet");
    for (let h = 28; h <= 40; h++)
      await indexer.indexHeight(keyedHeight(BigInt(h), [`a${h}`, `b${h}`, `c${h}`]));
    assert.equal(told.length, 1, "said once");
    assert.equal(told[0]!.added, 82);
    assert.equal(told[0]!.bytes, 64);
    assert.ok(told[0]!.falsePositiveRate >= 0.05);

    const lines: string[] = [];
    const log = createLogger({
      level: "info",
      format: "json",
      destination: { write: (t: string) => lines.push(t) },
    });
    logHomeFilterCrowded(log, {
      bytes: 16 * 1024 * 1024,
      complete: true,
      added: 21_500_000,
      falsePositiveRate: 0.05,
    });
    assert.equal(lines.length, 1);
    const line = JSON.parse(lines[0]!);
    assert.equal(line.level, "warn");
    assert.match(line._msg, /home filter crowded: raise db_tx_index_home_filter_mb/);
    assert.equal(line.keys, 21_500_000);
    assert.equal(line.mb, 16);
    assert.equal(line.falsePositivePercent, 5);
  } finally {
    await db.close();
    await bodies.close();
  }
});
