// Runs the test suite with node's own runner, TypeScript loaded through tsx.
// `node test/run.mjs` runs every layer; `node test/run.mjs unit golden` only those folders;
// a path ending in .ts runs that file alone.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const layers = ["unit", "integration", "golden", "property", "sim", "e2e"];
const args = process.argv.slice(2);
const chosen = args.length ? args : layers;

function testFiles(dir) {
  let found = [];
  let entries = [];
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of entries.sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) found = found.concat(testFiles(full));
    else if (name.endsWith(".test.ts")) found.push(relative(root, full));
  }
  return found;
}

const files = chosen.flatMap((arg) => (arg.endsWith(".ts") ? [arg] : testFiles(join(root, "test", arg))));
if (files.length === 0) {
  console.error(`no test files under ${chosen.join(", ")}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", "--test-concurrency=2", "--test-reporter=spec", ...files],
  { cwd: root, stdio: "inherit" },
);
process.exit(result.status ?? 1);
