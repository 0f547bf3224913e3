// bin/run.js run as a program sets glibc's malloc defaults for the node (its shell preamble), keeps
// any the environment already set, and run through `node` is plain JavaScript that sets none.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/run.js", import.meta.url));
const NAMES = ["MALLOC_ARENA_MAX", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_"] as const;

const dir = mkdtempSync(join(tmpdir(), "rxbft-bin-malloc-"));
after(() => rmSync(dir, { recursive: true, force: true }));
// Preloaded before oclif: prints what the started Node process sees and ends it.
const printer = join(dir, "print-env.mjs");
writeFileSync(
  printer,
  `console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(NAMES)}.map((n) => [n, process.env[n] ?? null])))); process.exit(0);\n`,
);

function seenBy(command: string, args: string[], extra: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...extra,
    NODE_OPTIONS: `--import=${printer}`,
  };
  for (const name of NAMES) if (!(name in extra)) delete env[name];
  const run = spawnSync(command, args, { env, encoding: "utf8" });
  assert.equal(run.status, 0, `${command} ${args.join(" ")}: ${run.stderr}`);
  return JSON.parse(run.stdout.trim()) as Record<string, string | null>;
}

test("run as a program, the bin sets two arenas and fixed mmap and trim thresholds", () => {
  assert.deepEqual(seenBy(BIN, []), {
    MALLOC_ARENA_MAX: "2",
    MALLOC_MMAP_THRESHOLD_: "131072",
    MALLOC_TRIM_THRESHOLD_: "131072",
  });
});

test("a value the environment already set is kept", () => {
  assert.deepEqual(seenBy(BIN, [], { MALLOC_ARENA_MAX: "8" }), {
    MALLOC_ARENA_MAX: "8",
    MALLOC_MMAP_THRESHOLD_: "131072",
    MALLOC_TRIM_THRESHOLD_: "131072",
  });
});

test("run through node, the preamble is a comment and glibc keeps its defaults", () => {
  assert.deepEqual(seenBy(process.execPath, [BIN]), {
    MALLOC_ARENA_MAX: null,
    MALLOC_MMAP_THRESHOLD_: null,
    MALLOC_TRIM_THRESHOLD_: null,
  });
});
