import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { levelDbWork, sharesByRole, threadShares } from "../bench/thread-roles.js";

// A LevelDB LOG's lines as its background thread writes them (local time, thread id, message).
const LOG = [
  "2026/11/30-05:00:00.100000 7f00 Level-0 table #5: started",
  "2026/11/30-05:00:00.300000 7f00 Level-0 table #5: 2000000 bytes OK",
  "2026/11/30-05:00:01.000000 7f00 Compacting 4@0 + 2@1 files",
  "2026/11/30-05:00:01.500000 7f00 Generated table #9@0: 100 keys, 3000000 bytes",
  "2026/11/30-05:00:02.000000 7f00 Compacted 4@0 + 2@1 files => 3000000 bytes",
  "2026/11/30-05:00:02.500000 7f00 Current memtable full; waiting...",
  "2026/11/30-05:00:09.000000 7f00 Level-0 table #12: started",
  "2026/11/30-05:00:09.100000 7f00 Level-0 table #12: 500000 bytes OK",
].join("\n");

const at = (hms: string) => new Date(`2026-11-30T${hms}`).getTime();

test("levelDbWork counts each database's flushes, compactions, busy time and stalls inside the window", () => {
  const dir = mkdtempSync(join(tmpdir(), "thread-roles-"));
  try {
    mkdirSync(join(dir, "tx_index.db"));
    writeFileSync(join(dir, "tx_index.db", "LOG"), LOG);
    mkdirSync(join(dir, "state.db"));
    const work = levelDbWork(dir, at("05:00:00"), at("05:00:05"));
    assert.deepEqual(work["tx_index.db"], {
      flushes: 1,
      flushedMb: 2,
      compactions: 1,
      compactedMb: 3,
      busySeconds: 1.2,
      stalls: 1,
    });
    // A database without a LOG is left out; a job ending after the window is not counted.
    assert.equal(work["state.db"], undefined);
    assert.equal(levelDbWork(dir, at("05:00:05"), at("05:00:10"))["tx_index.db"]?.flushes, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("threadShares gives each thread's CPU per 1,000 txs over the window, and sharesByRole sums them", () => {
  const before = new Map([
    [10, { comm: "node", ms: 1000 }],
    [11, { comm: "node", ms: 50 }],
    [12, { comm: "node", ms: 70 }],
  ]);
  const after = new Map([
    [10, { comm: "node", ms: 3000 }],
    [11, { comm: "node", ms: 250 }],
    [12, { comm: "node", ms: 170 }],
    // started during the window: all its CPU is the window's
    [13, { comm: "node", ms: 100 }],
  ]);
  const roles = new Map([
    [11, "libuv pool"],
    [12, "libuv pool"],
    [13, "LevelDB background"],
  ]);
  const rows = threadShares(before, after, roles, 10, 100_000);
  assert.deepEqual(rows, [
    { tid: 10, role: "main", perKTx: 20 },
    { tid: 11, role: "libuv pool", perKTx: 2 },
    { tid: 12, role: "libuv pool", perKTx: 1 },
    { tid: 13, role: "LevelDB background", perKTx: 1 },
  ]);
  assert.deepEqual(sharesByRole(rows), { main: 20, "libuv pool": 3, "LevelDB background": 1 });
  assert.equal(threadShares(before, after, undefined, 10, 100_000)[1]?.role, "unknown (node)");
});
