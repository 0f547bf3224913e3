// `rxbft reindex-event`: on a home whose event index was deleted, rebuilds it from the stored
// blocks and ABCI results so that tx_search finds every tx again; running it twice gives the
// same index; the null indexer and a locked home are refused.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { ClassicLevel } from "classic-level";
import { openStores } from "../../src/store/open-stores.js";
import { runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const TXS = 120;

async function dumpIndex(dir: string): Promise<string> {
  const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: "view", valueEncoding: "view" });
  await db.open();
  const hash = createHash("sha256");
  let n = 0;
  for await (const [k, v] of db.iterator()) {
    hash.update(k).update(v);
    n++;
  }
  await db.close();
  return `${n}:${hash.digest("hex")}`;
}

test("reindex-event restores every tx of a deleted index; tx_search finds them all again", {
  timeout: 120_000,
}, async () => {
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-reindex-");
  const txs = Array.from({ length: TXS }, (_, i) => `reindex${i}=value${i}`);
  let node = new NodeProcess(home);
  try {
    await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the RPC server");
    // Half, committed, then the other half: at least two heights hold txs however fast the
    // machine sends (all 120 in 100 ms fit one height).
    const committedTxs = () => node.committed.reduce((n, c) => n + c.txs, 0);
    for (let i = 0; i < TXS; i += 20) {
      if (i === TXS / 2) await node.waitFor(() => committedTxs() >= TXS / 2, "the first half committed");
      await Promise.all(txs.slice(i, i + 20).map((tx) => node.rpc(`/broadcast_tx_sync?tx="${tx}"`)));
    }
    await node.waitFor(() => committedTxs() >= TXS, "every tx committed");
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
  } finally {
    node.kill("SIGKILL");
  }
  const heightsWithTxs = new Set(node.committed.filter((c) => c.txs > 0).map((c) => c.height));
  assert.ok(heightsWithTxs.size >= 2, "txs spread over several heights");
  const indexDir = join(home, "data/tx_index.db");
  const original = await dumpIndex(indexDir);
  rmSync(indexDir, { recursive: true });

  const out = await runCli(["reindex-event", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^Re-indexing heights 1\.\.\d+ \(\d+ heights\) into .*tx_index\.db$/m);
  assert.match(out.stdout, new RegExp(`^Re-indexed \\d+ heights \\(${TXS} txs\\)\\.$`, "m"));
  // The progress line (stderr: not a terminal here, so whole lines) with its rate.
  assert.match(
    out.stderr,
    /^\[#{30}\] (\d+)\/\1 heights 100\.0% [\d.k]+ heights\/s, 120 txs \([\d.k]+\/s\), [\d.]+s$/m,
  );

  // Offline: every tx is back at its height, found by hash and by its event.
  const stores = await openStores(join(home, "data"), { indexer: "kv" });
  try {
    for (const tx of txs) {
      const hash = createHash("sha256").update(tx).digest();
      const result = await stores.txIndexer.getByHash(hash);
      assert.ok(result, `tx ${tx} indexed`);
      assert.ok(heightsWithTxs.has(result.height));
      assert.equal(Buffer.from(result.tx).toString(), tx);
    }
  } finally {
    await stores.close();
  }
  assert.equal(await dumpIndex(indexDir), original, "the rebuilt index equals the one the node wrote");
  // Idempotent: a second run changes nothing.
  const again = await runCli(["reindex_event", "--home", home]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(await dumpIndex(indexDir), original);

  // Through the node's RPC: tx_search finds every tx.
  node = new NodeProcess(home);
  try {
    const found = new Set<string>();
    for (let page = 1; page <= 2; page++) {
      const body = await node.rpc(`/tx_search?query="tx.height>0"&per_page=100&page=${page}`);
      const result = body.result as { total_count: string; txs: { tx: string }[] };
      assert.ok(result, JSON.stringify(body));
      assert.equal(Number(result.total_count), TXS);
      for (const t of result.txs) found.add(Buffer.from(t.tx, "base64").toString());
    }
    assert.deepEqual([...found].sort(), [...txs].sort());
    const byKey = (await node.rpc(`/tx_search?query="app.key='reindex7'"`)).result as { total_count: string };
    assert.equal(Number(byKey.total_count), 1);
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0);
  } finally {
    node.kill("SIGKILL");
  }
});

test("reindex-event checks its range flags against the stores", { timeout: 60_000 }, async () => {
  const home = await initFastHome({ timeout_commit: "50ms" }, "rxbft-reindex-");
  const node = new NodeProcess(home);
  try {
    await node.waitFor(() => node.height >= 3n, "three blocks");
    node.kill("SIGINT");
    await node.exited;
  } finally {
    node.kill("SIGKILL");
  }
  const high = await runCli(["reindex-event", "--home", home, "--end-height", "999999"]);
  assert.equal(high.code, 1);
  assert.match(high.stderr, /^Error: --end-height 999999 is above the last executed height \d+\n$/);
  const bad = await runCli(["reindex-event", "--home", home, "--start-height", "abc"]);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr, 'Error: flag --start-height: expected a height (a positive integer), got "abc"\n');
  const some = await runCli(["reindex-event", "--home", home, "--start-height", "2", "--end-height", "3"]);
  assert.equal(some.code, 0, some.stderr);
  assert.match(some.stdout, /Re-indexing heights 2\.\.3 \(2 heights\)/);
});

test("reindex-event refuses the null indexer and a home a live node holds", async () => {
  const home = await initFastHome({}, "rxbft-reindex-");
  const configFile = join(home, "config/config.toml");
  const kv = readFileSync(configFile, "utf8");
  writeFileSync(configFile, kv.replace(/^indexer = "kv"$/m, 'indexer = "null"'));
  const out = await runCli(["reindex-event", "--home", home]);
  assert.equal(out.code, 1);
  assert.equal(
    out.stderr,
    `Error: ${configFile}: tx_index.indexer is "null": there is no event index to rebuild. Set indexer = "kv" under [tx_index] first (the node then indexes new heights, and this command the old ones)\n`,
  );
  writeFileSync(configFile, kv);
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
  try {
    writeFileSync(join(home, "data/rxbft.lock"), `${sleeper.pid}\n`);
    const locked = await runCli(["reindex-event", "--home", home]);
    assert.equal(locked.code, 1);
    assert.match(
      locked.stderr,
      new RegExp(`refusing to rebuild the event index: a node \\(pid ${sleeper.pid}\\) is running`),
    );
  } finally {
    sleeper.kill();
  }
});
