// A running node closes and reopens its tx index at idle (src/level/quiet-reopen.ts, through the
// idle step of streams/idle-heap.ts) while a client keeps asking /tx for a committed tx: every
// answer finds it, and the index keeps working after (a new tx committed and found, tx_search).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const REOPENED = /idle: V8 heap collected\s.*level_databases_reopened=2/;

async function commitTx(url: string, tx: string): Promise<string> {
  const base64 = Buffer.from(tx).toString("base64");
  const res = await fetch(`${url}/broadcast_tx_commit?tx="${encodeURIComponent(tx)}"`);
  const body = (await res.json()) as { result?: { hash: string; deliver_tx: { code: string } } };
  assert.equal(body.result?.deliver_tx.code, "0", `${tx} (${base64}) not committed: ${JSON.stringify(body)}`);
  return body.result!.hash;
}

test("the tx index is reopened at idle while /tx is asked without pause", { timeout: 120_000 }, async () => {
  const home = await initFastHome({ timeout_commit: "200ms" }, "rxbft-idle-reopen-");
  const file = join(home, "config", "config.toml");
  // A quiet spell of 2 s: long enough to commit a tx first (the start's own quiet spell runs the step).
  writeFileSync(
    file,
    readFileSync(file, "utf8").replace(/^idle_heap_collect_seconds = .*$/m, "idle_heap_collect_seconds = 2"),
  );
  const node = new NodeProcess(home);
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the RPC server and a block");
  const url = node.rpcUrl!;
  const hash = await commitTx(url, "idle=reopen");
  let asked = 0;
  while (!REOPENED.test(node.output)) {
    const res = await fetch(`${url}/tx?hash=0x${hash}`);
    const body = (await res.json()) as { result?: { hash: string }; error?: unknown };
    assert.equal(body.result?.hash, hash, `/tx answer ${asked}: ${JSON.stringify(body)}`);
    asked++;
    assert.ok(asked < 100_000, `no idle reopen in the log:\n${node.output.slice(-2000)}`);
  }
  assert.ok(asked > 0, "asked before the reopen");
  const after = await commitTx(url, "after=reopen");
  const found = (await (await fetch(`${url}/tx?hash=0x${after}`)).json()) as { result?: { hash: string } };
  assert.equal(found.result?.hash, after);
  const search = (await (await fetch(`${url}/tx_search?query="app.key='idle'"`)).json()) as {
    result?: { total_count: string };
  };
  assert.equal(search.result?.total_count, "1");
  node.kill("SIGTERM");
  assert.equal((await node.exited).code, 0, node.output.slice(-2000));
});
