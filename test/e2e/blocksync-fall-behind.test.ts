// The return to block sync from consensus (beyond v0.34, issue 14 item 4), between real processes
// on loopback. A full node syncs from a validator, switches to consensus and follows; it is then
// paused with SIGSTOP while the validator commits more than its [fastsync] fall_behind_heights,
// and resumed with SIGCONT: it logs the return to block sync, stops its consensus loop, says
// catching_up in /status, syncs the missed heights, switches to consensus again and follows,
// with the validator's block hash and app hash at every height and no height applied twice.
// The same for a validator of four paused while the three others go on: it signs again after
// its return, and all four hold the same hashes.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { DEFAULT_BLOCK_POOL_PARAMS } from "../../src/blocksync/index.js";
import { runCli, tempHome } from "./cli-harness.js";
import { firstSignedHeight } from "./commit-signers.js";
import { weakenValidator } from "./genesis-power.js";
import { FAST_CONSENSUS, Network } from "./network-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, setConfig } from "./p2p-harness.js";

after(killAllNodes);

const FALL_BEHIND = 20n;
const COMMITTED = /committed block\s.*height=(\d+) .*hash=([0-9A-F]{64}) appHash=([0-9A-F]*)/g;
const SWITCHED = /caught up: switching to consensus\s.*height=(\d+)/g;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// A node in consensus asks its peers' heights every status interval (v0.34's 10 s) and applies the
// rule to the answers. A pause longer than that interval makes the ask due the moment the node
// resumes, before consensus catch-up can close the gap: at 100 ms blocks, catch-up through
// consensus gossip closes 60 heights within one interval, and then the node rightly never returns
// (a shorter pause made the test race it).
const PAUSE_AT_LEAST_MS = DEFAULT_BLOCK_POOL_PARAMS.statusIntervalMs + 1_500;

/** Resolves when `ms` have passed since `since` (a Date.now() value). */
const sleepUntil = (since: number, ms: number) => sleep(Math.max(0, since + ms - Date.now()));

/** Every "committed block" line of a node: heights in order and "blockHash/appHash" by height. */
function committed(output: string): { heights: bigint[]; byHeight: Map<bigint, string> } {
  const heights: bigint[] = [];
  const byHeight = new Map<bigint, string>();
  for (const m of output.matchAll(COMMITTED)) {
    heights.push(BigInt(m[1]!));
    byHeight.set(BigInt(m[1]!), `${m[2]}/${m[3]}`);
  }
  return { heights, byHeight };
}

const switches = (output: string) => [...output.matchAll(SWITCHED)].map((m) => BigInt(m[1]!));

test("a node in consensus that falls behind returns to block sync and back to consensus", {
  timeout: 300_000,
}, async () => {
  const validatorHome = await initFastHome({ timeout_commit: "100ms" }, "rxbft-fall-behind-val-");
  const [port] = await freePorts(1);
  const id = await runCli(["show_node_id", "--home", validatorHome]);
  assert.equal(id.code, 0, id.stderr);
  const validator = new NodeProcess(validatorHome, ["--p2p.laddr", `tcp://127.0.0.1:${port}`]);
  await validator.waitFor(() => validator.height >= 5n, "the validator's first blocks", 60_000);

  const home = tempHome("rxbft-fall-behind-full-");
  const init = await runCli(["init", "--home", home, "--chain-id", "node-e2e"]);
  assert.equal(init.code, 0, init.stderr);
  copyFileSync(join(validatorHome, "config", "genesis.json"), join(home, "config", "genesis.json"));
  setConfig(home, "p2p", { persistent_peers: `${id.stdout.trim()}@127.0.0.1:${port}` });
  setConfig(home, "fastsync", { fall_behind_heights: Number(FALL_BEHIND) });
  const full = new NodeProcess(home);
  try {
    // First: the ordinary sync from genesis, then consensus follows the validator.
    await full.waitFor(() => switches(full.output).length === 1, "the first switch to consensus", 60_000);
    const firstSwitch = switches(full.output)[0]!;
    await full.waitFor(() => full.height >= firstSwitch + 5n, "following in consensus", 60_000);

    // Paused: the validator goes on without it.
    const pausedAt = full.height;
    process.kill(full.child.pid!, "SIGSTOP");
    const pausedSince = Date.now();
    try {
      await validator.waitFor(
        () => validator.height >= pausedAt + 3n * FALL_BEHIND,
        `the validator ${3n * FALL_BEHIND} heights further`,
        120_000,
      );
      await sleepUntil(pausedSince, PAUSE_AT_LEAST_MS);
    } finally {
      process.kill(full.child.pid!, "SIGCONT");
    }

    await full.waitFor(
      () => full.output.includes("fell behind the peers: returning to block sync"),
      "the return to block sync",
      60_000,
    );
    await full.waitFor(() => /consensus stopped\s/.test(full.output), "consensus to stop");
    let sawCatchingUp = false;
    while (switches(full.output).length < 2) {
      if (full.child.exitCode !== null) assert.fail(`the full node exited:\n${full.output.slice(-3000)}`);
      const status = (await full.rpc("/status")) as { result: { sync_info: { catching_up: boolean } } };
      if (status.result.sync_info.catching_up) sawCatchingUp = true;
      await sleep(50);
    }
    assert.ok(sawCatchingUp, "/status said catching_up during the second sync");
    const secondSwitch = switches(full.output)[1]!;
    assert.ok(secondSwitch >= pausedAt + 2n * FALL_BEHIND, `synced to ${secondSwitch} after ${pausedAt}`);
    await full.waitFor(
      () => new RegExp(`consensus started\\s.*height=${secondSwitch + 1n} `).test(full.output),
      `consensus again at height ${secondSwitch + 1n}`,
    );
    const later = secondSwitch + 10n;
    await full.waitFor(() => full.height >= later, `following again to height ${later}`, 60_000);

    const ours = committed(full.output);
    const theirs = committed(validator.output).byHeight;
    for (let h = 1n; h <= later; h++) {
      assert.ok(ours.byHeight.has(h), `the full node never committed height ${h}`);
      assert.equal(ours.byHeight.get(h), theirs.get(h), `block/app hash at height ${h}`);
    }
    assert.equal(new Set(ours.heights).size, ours.heights.length, "no height applied twice");
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n--- full ---\n${full.output.slice(-4000)}\n--- validator ---\n${validator.output.slice(-1500)}`,
    );
  } finally {
    full.kill("SIGTERM");
    validator.kill("SIGTERM");
    await Promise.all([full.exited, validator.exited]);
  }
});

test("a validator of four that falls behind returns to block sync, back to consensus, and signs again", {
  timeout: 420_000,
}, async () => {
  const net = await Network.create({
    validators: 4,
    prefix: "rxbft-fall-behind-net-",
    consensus: { ...FAST_CONSENSUS, timeout_commit: "100ms" },
  });
  weakenValidator(net.homes, "node3");
  setConfig(net.homes[3]!, "fastsync", { fall_behind_heights: 10 });
  net.startAll();
  try {
    await net.waitForHeight([0, 1, 2, 3], 3n, 120_000);
    const status = await net.rpc<{ validator_info: { address: string } }>(3, "/status");
    const node3 = net.node(3);
    const pausedAt = node3.height;
    process.kill(node3.child.pid!, "SIGSTOP");
    const pausedSince = Date.now();
    try {
      await net.waitForHeight([0, 1, 2], pausedAt + 30n, 240_000);
      await sleepUntil(pausedSince, PAUSE_AT_LEAST_MS);
    } finally {
      process.kill(node3.child.pid!, "SIGCONT");
    }
    await node3.waitFor(
      () => node3.output.includes("fell behind the peers: returning to block sync"),
      "node3's return to block sync",
      60_000,
    );
    await node3.waitFor(() => /consensus stopped\s/.test(node3.output), "node3's consensus to stop");
    // Its boot logged the first switch (a sync of nothing); the return ends with a second one.
    await node3.waitFor(() => switches(node3.output).length >= 2, "node3 back in consensus", 120_000);
    const back = switches(node3.output)[1]!;
    assert.ok(back >= pausedAt + 20n, `node3 synced to ${back} after ${pausedAt}`);
    await firstSignedHeight(net, {
      reader: 0,
      signer: 3,
      address: status.validator_info.address,
      after: back + 1n,
      within: 30n,
    });
    const upTo = net.commonHeight([0, 1, 2, 3]);
    assert.deepEqual(net.forks(), [], "no height was ever committed with two hashes");
    assert.deepEqual(await net.compareHashes([0, 1, 2, 3], 1n, upTo), []);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${[0, 1, 2, 3].map((i) => net.tail(i)).join("\n")}`);
  } finally {
    await net.stopAll();
  }
});
