// The idle-heap collection (streams/idle-heap.ts) in a process of its own (a collection is
// process-wide): a heap grown by garbage, with nothing pending, is collected through the
// inspector, once, and ends well below where it stood.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const MODULE = fileURLToPath(new URL("../../streams/idle-heap.ts", import.meta.url));

const SCRIPT = `
import { getHeapStatistics } from "node:v8";
import { startIdleHeap } from ${JSON.stringify(MODULE)};
const lines = [];
const stop = startIdleHeap(1, { pendingTxs: () => 0, log: { info: (m, f) => lines.push({ m, ...f }) } });
await new Promise((r) => setTimeout(r, 1100));
let keep = [];
for (let i = 0; i < 2_000_000; i++) {
  keep.push({ tx: Buffer.alloc(64), s: "k" + i });
  if (keep.length > 400_000) keep = keep.slice(200_000);
}
keep = null;
const grown = getHeapStatistics().total_heap_size;
const deadline = Date.now() + 8000;
while (!lines.some((l) => l.m === "idle: V8 heap collected") && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 200));
stop();
console.log(JSON.stringify({ grown, after: getHeapStatistics().total_heap_size, lines }));
`;

test("a heap grown by a load's garbage is collected once nothing is pending", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
    grown: number;
    after: number;
    lines: { m: string; heap_mb_before?: number; heap_mb_after?: number }[];
  };
  const collected = out.lines.filter((l) => l.m === "idle: V8 heap collected");
  assert.equal(collected.length, 1, JSON.stringify(out.lines));
  const MB = 1024 * 1024;
  assert.ok(out.grown > 80 * MB, `the garbage grew the heap to ${out.grown / MB} MB only`);
  assert.ok(out.after < out.grown / 4, `heap ${out.grown / MB} → ${out.after / MB} MB`);
});

const RELEASE_SCRIPT = `
import { startIdleHeap } from ${JSON.stringify(MODULE)};
const order = [];
const lines = [];
const fail = process.argv.at(-1) === "fail";
const stop = startIdleHeap(1, {
  pendingTxs: () => 0,
  log: { info: (m, f) => lines.push({ m, ...f }) },
  release: async () => {
    order.push("release");
    await new Promise((r) => setTimeout(r, 50));
    if (fail) throw new Error("flush refused");
    return { level_mb_before: 12.5, level_mb_after: 0.2 };
  },
  collect: async () => { order.push("collect"); },
});
await new Promise((r) => setTimeout(r, 1100));
let keep = [];
for (let i = 0; i < 2_000_000; i++) {
  keep.push({ tx: Buffer.alloc(64), s: "k" + i });
  if (keep.length > 400_000) keep = keep.slice(200_000);
}
// Kept alive until the step has run: these tests are about the order and the log line, so the
// heap must stay above the margin until the next poll sees it, whatever V8 collects meanwhile
// on its own (a busy machine's timing let it shrink first, and no step ran).
const deadline = Date.now() + 8000;
while (!lines.some((l) => l.m === "idle: V8 heap collected") && Date.now() < deadline)
  await new Promise((r) => setTimeout(r, 200));
stop();
keep = null;
console.log(JSON.stringify({ order, lines }));
`;

function runRelease(mode: "ok" | "fail") {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", RELEASE_SCRIPT, "--", mode],
    { encoding: "utf8", timeout: 60_000 },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as {
    order: string[];
    lines: Record<string, unknown>[];
  };
}

test("native memory is released right before the collection, its figures on the same log line", () => {
  const out = runRelease("ok");
  assert.deepEqual(out.order, ["release", "collect"]);
  const collected = out.lines.filter((l) => l.m === "idle: V8 heap collected");
  assert.equal(collected.length, 1, JSON.stringify(out.lines));
  assert.equal(collected[0]!.level_mb_before, 12.5);
  assert.equal(collected[0]!.level_mb_after, 0.2);
});

test("a release that fails is logged and the collection still runs", () => {
  const out = runRelease("fail");
  assert.deepEqual(out.order, ["release", "collect"]);
  assert.ok(
    out.lines.some(
      (l) => l.m === "idle: native memory not released" && /flush refused/.test(String(l.reason)),
    ),
  );
  assert.equal(
    out.lines.filter((l) => l.m === "idle: V8 heap collected").length,
    1,
    JSON.stringify(out.lines),
  );
});
