// Runs every benchmark under test/bench one after the other (they measure, so never in parallel).
// `node test/run-bench.mjs crypto` runs the files whose name contains "crypto".
// Benchmarks print figures beside a same-run baseline and never fail on time.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const filter = process.argv[2] ?? "";
const benches = readdirSync(join(root, "test", "bench"))
  .filter((name) => name.endsWith(".bench.ts") && name.includes(filter))
  .sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n## ${name}`);
  const result = spawnSync(process.execPath, ["--import", "tsx", join("test", "bench", name)], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) failed++;
}
if (failed) {
  console.error(`${failed} benchmark file(s) crashed`);
  process.exit(1);
}
