// openStores (src/store/open-stores.ts) loads the psql indexer, and with it the pg client, only when
// the node indexes into PostgreSQL: a node on the kv indexer, the default, never holds pg's compiled
// code in its heap. Checked in a process of its own, where nothing else has loaded pg.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const MODULE = fileURLToPath(new URL("../../src/store/open-stores.ts", import.meta.url));

const SCRIPT = `
import { createRequire } from "node:module";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStores } from ${JSON.stringify(MODULE)};
const dir = mkdtempSync(join(tmpdir(), "rxbft-psql-lazy-"));
const stores = await openStores(dir, { indexer: "kv" });
await stores.close();
rmSync(dir, { recursive: true, force: true });
const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes("/node_modules/pg/"));
console.log(JSON.stringify(loaded));
`;

test("a node on the kv indexer opens its stores without loading the pg client", () => {
  const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", SCRIPT], {
    encoding: "utf8",
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const loaded = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as string[];
  assert.deepEqual(loaded, []);
});
