// `rxbft compact`: every LevelDB database of a home is compacted, with sizes before and after; a
// home whose index saw many deletions shrinks.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { ClassicLevel } from "classic-level";
import { directoryBytes } from "../../src/operations/compact-stores.js";
import { runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

test("compact shrinks a home after many deletions and prints each database's sizes", {
  timeout: 90_000,
}, async () => {
  const home = await initFastHome({ timeout_commit: "50ms" }, "rxbft-compact-");
  const node = new NodeProcess(home);
  try {
    await node.waitFor(() => node.height >= 3n, "three blocks");
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
  } finally {
    node.kill("SIGKILL");
  }
  // Many writes then deletions in the home's event index (as re-indexing and pruning do): the
  // deleted keys keep their space until a compaction.
  const indexDir = join(home, "data/tx_index.db");
  const db = new ClassicLevel<Uint8Array, Uint8Array>(indexDir, {
    keyEncoding: "view",
    valueEncoding: "view",
  });
  await db.open();
  const key = (i: number) => Uint8Array.of(0x7f, (i >> 16) & 0xff, (i >> 8) & 0xff, i & 0xff);
  for (let start = 0; start < 20_000; start += 1000) {
    const batch = db.batch();
    for (let i = start; i < start + 1000; i++) batch.put(key(i), randomBytes(1024));
    await batch.write();
  }
  for (let start = 0; start < 20_000; start += 1000) {
    const batch = db.batch();
    for (let i = start; i < start + 1000; i++) batch.del(key(i));
    await batch.write();
  }
  await db.close();
  const before = directoryBytes(indexDir);
  assert.ok(before > 10_000_000, `the deletions still hold space (${before} bytes)`);

  const out = await runCli(["compact", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  const after = directoryBytes(indexDir);
  assert.ok(after < before / 10, `tx_index.db shrank: ${before} -> ${after} bytes`);
  assert.match(out.stdout, /^Compacting 6 LevelDB databases in .*\/data:$/m);
  for (const name of [
    "blockstore.db",
    "evidence.db",
    "kvstore.db",
    "state.db",
    "tx_index.db",
    "tx_index_bodies.db",
  ]) {
    assert.match(
      out.stdout,
      new RegExp(`^  .*/data/${name}: [\\d.]+ (B|KiB|MiB) -> [\\d.]+ (B|KiB|MiB)$`, "m"),
      name,
    );
  }
  assert.match(out.stdout, /^Total: .* -> .* \(.* freed\)$/m);
  // The chain still starts from the compacted home.
  const again = new NodeProcess(home);
  try {
    await again.waitFor(() => again.height >= 5n, "blocks after compaction");
    again.kill("SIGINT");
    assert.equal((await again.exited).code, 0);
  } finally {
    again.kill("SIGKILL");
  }
});

test("compact (and its v0.34 name) refuses a home a live node holds", async () => {
  const home = await initFastHome({}, "rxbft-compact-");
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
  try {
    writeFileSync(join(home, "data/rxbft.lock"), `${sleeper.pid}\n`);
    for (const command of ["compact", "experimental-compact-goleveldb"]) {
      const out = await runCli([command, "--home", home]);
      assert.equal(out.code, 1, command);
      assert.match(
        out.stderr,
        new RegExp(`refusing to compact the databases: a node \\(pid ${sleeper.pid}\\) is running`),
      );
    }
  } finally {
    sleeper.kill();
  }
});
