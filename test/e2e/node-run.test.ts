// `rxbft init` + `rxbft node`: a single validator with the in-process kvstore commits heights,
// answers /status, stops cleanly on SIGINT (exit 0, lock released), continues the same chain on
// a second start, and `rxbft replay` folds the resulting log offline.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const FAST = {
  timeout_commit: "50ms",
  timeout_propose: "1s",
  timeout_prevote: "300ms",
  timeout_precommit: "300ms",
};

function latestHeight(status: Record<string, unknown>): bigint {
  const result = status.result as Record<string, Record<string, unknown>>;
  const sync = result.sync_info ?? result.syncInfo!;
  return BigInt((sync.latest_block_height ?? sync.latestBlockHeight) as string);
}

test("node commits 10+ heights, stops on SIGINT, and a second start continues the chain", async () => {
  const home = await initFastHome(FAST);
  const first = new NodeProcess(home);
  await first.waitFor(() => first.height >= 10n, "height 10");
  assert.ok(latestHeight(await first.rpc("/status")) >= 10n);
  const health = await first.rpc("/health");
  assert.deepEqual(health.result, {});
  first.kill("SIGINT");
  const exit1 = await first.exited;
  assert.equal(exit1.code, 0, first.output.slice(-2000));
  assert.match(first.output, /node stopped\s.*exitCode=0/);
  assert.equal(
    first.output.match(/RPC server listening/g)?.length,
    1,
    "the listening address is logged once",
  );
  assert.equal(existsSync(join(home, "data", "rxbft.lock")), false, "lock released");
  const heights = first.committed.map((c) => c.height);
  assert.deepEqual(
    heights,
    heights.map((_, i) => BigInt(i + 1)),
    "heights 1, 2, 3, … each once",
  );

  const second = new NodeProcess(home);
  const last = first.height;
  await second.waitFor(() => second.height >= last + 3n, `height ${last + 3n}`);
  assert.equal(
    second.committed[0]!.height,
    last + 1n,
    "the second run starts after the first run's last height",
  );
  second.kill("SIGTERM");
  assert.equal((await second.exited).code, 0, second.output.slice(-2000));

  const replay = await runCli(["replay", "--home", home]);
  assert.equal(replay.code, 0, replay.stderr);
  const total = second.height;
  for (const c of [...first.committed, ...second.committed]) {
    assert.match(replay.stdout, new RegExp(`^height ${c.height} round \\d+ block ${c.hash} txs 0 `, "m"));
  }
  assert.match(replay.stdout, new RegExp(`${total} heights decided; 2 starts`));
});
