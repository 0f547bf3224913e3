// heap_growing_percent (streams/heap-growing.ts): set at start in a running process, it bounds how
// far V8's heap grows past the live set under allocation churn. Each case runs in its own process,
// since the flag is process-wide.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { applyHeapGrowing } from "../../streams/heap-growing.js";

const MODULE = fileURLToPath(new URL("../../streams/heap-growing.ts", import.meta.url));

// About 20 MB live (a sliding window of small objects, as the mempool and recent heights are)
// and ~10× that allocated and dropped: the peak heap size shows how much slack V8 kept.
const CHURN = `
import { applyHeapGrowing } from ${JSON.stringify(MODULE)};
applyHeapGrowing(Number(process.argv.at(-1)));
const live = [];
let peak = 0;
for (let i = 0; i < 1_500_000; i++) {
  live.push({ tx: "k" + i + "=" + "v".repeat(60), at: [i, i + 1] });
  if (live.length > 120_000) live.splice(0, 30_000);
  if (i % 5000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
console.log(Math.round(peak / 1048576));
`;

function peakHeapMb(percent: number): number {
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", CHURN, String(percent)],
    { encoding: "utf8", timeout: 120_000 },
  );
  assert.equal(run.status, 0, run.stderr);
  return Number(run.stdout.trim());
}

test("heap_growing_percent: a low percent keeps the heap's peak well below V8's own rule", () => {
  const own = peakHeapMb(0);
  const bounded = peakHeapMb(20);
  assert.ok(own > 0 && bounded > 0, `peaks ${own} and ${bounded} MB`);
  assert.ok(bounded < own * 0.75, `peak with 20 %: ${bounded} MB, with V8's own rule: ${own} MB`);
});

test("heap_growing_percent: 0 changes nothing, a negative or fractional percent is refused", () => {
  assert.doesNotThrow(() => applyHeapGrowing(0));
  assert.throws(() => applyHeapGrowing(-1), RangeError);
  assert.throws(() => applyHeapGrowing(1.5), RangeError);
});
