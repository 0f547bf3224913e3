// Block sync between real processes on loopback. A validator (timeout_commit 10ms, some txs so
// app hashes move) runs past height 500. A fresh full node with its genesis and the validator as
// persistent peer starts in block sync (/status catching_up true meanwhile), catches up with the
// validator's block hash and app hash at every height, switches to consensus at the synced
// height, and keeps following through consensus gossip with the same hashes. A second full node is killed with
// SIGKILL mid-sync and restarted: it resumes at the next height, never applying a height twice
// nor skipping one, and ends with the same hashes.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, setConfig } from "./p2p-harness.js";

let validator: NodeProcess | undefined;
// killAllNodes alone does not stop the nodes of this file (the harness never registers them), and
// a live validator would keep the test process from exiting.
after(() => {
  validator?.kill("SIGKILL");
  killAllNodes();
});

const COMMITTED = /committed block\s.*height=(\d+) .*hash=([0-9A-F]{64}) appHash=([0-9A-F]*)/g;
const TARGET = 500n;

/** height → "blockHash/appHash" from a node's "committed block" lines (every run of its home). */
function committedHashes(output: string): { heights: bigint[]; byHeight: Map<bigint, string> } {
  const heights: bigint[] = [];
  const byHeight = new Map<bigint, string>();
  for (const m of output.matchAll(COMMITTED)) {
    const h = BigInt(m[1]!);
    heights.push(h);
    byHeight.set(h, `${m[2]}/${m[3]}`);
  }
  return { heights, byHeight };
}

let validatorHome: string;
let peerSpec: string;

async function sendTxs(node: NodeProcess, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const tx = Buffer.from(`sync${i}=value${i}`).toString("base64");
    const res = await fetch(node.rpcUrl!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "broadcast_tx_sync", params: { tx } }),
    });
    const body = (await res.json()) as { result?: { code: number | string } };
    assert.equal(Number(body.result?.code), 0, JSON.stringify(body));
  }
}

async function fullNodeHome(): Promise<string> {
  const home = tempHome("rxbft-blocksync-full-");
  const out = await runCli(["init", "--home", home, "--chain-id", "node-e2e"]);
  assert.equal(out.code, 0, out.stderr);
  copyFileSync(join(validatorHome, "config", "genesis.json"), join(home, "config", "genesis.json"));
  setConfig(home, "p2p", { persistent_peers: peerSpec });
  return home;
}

before(async () => {
  validatorHome = await initFastHome({ timeout_commit: "10ms" }, "rxbft-blocksync-val-");
  const [port] = await freePorts(1);
  const id = await runCli(["show_node_id", "--home", validatorHome]);
  assert.equal(id.code, 0, id.stderr);
  peerSpec = `${id.stdout.trim()}@127.0.0.1:${port}`;
  const v = new NodeProcess(validatorHome, ["--p2p.laddr", `tcp://127.0.0.1:${port}`]);
  validator = v;
  await v.waitFor(() => v.rpcUrl !== undefined && v.height >= 2n, "a first block");
  await sendTxs(v, 30);
  await v.waitFor(() => v.height >= TARGET, `height ${TARGET}`, 240_000);
});

function assertSameChain(full: NodeProcess, upTo: bigint): void {
  const ours = committedHashes(full.output).byHeight;
  const theirs = committedHashes(validator!.output).byHeight;
  for (let h = 1n; h <= upTo; h++) {
    assert.ok(ours.has(h), `the full node never committed height ${h}`);
    assert.equal(ours.get(h), theirs.get(h), `block/app hash at height ${h}`);
  }
}

test("a fresh full node catches up by block sync, switches to consensus and keeps following", {
  timeout: 300_000,
}, async () => {
  const full = new NodeProcess(await fullNodeHome());
  // catching_up is true while syncing.
  await full.waitFor(() => full.rpcUrl !== undefined, "the RPC server");
  let sawCatchingUp = false;
  while (!full.output.includes("caught up: switching to consensus")) {
    const status = (await full.rpc("/status")) as { result: { sync_info: { catching_up: boolean } } };
    if (status.result.sync_info.catching_up) sawCatchingUp = true;
    if (full.child.exitCode !== null) assert.fail(`the full node exited:\n${full.output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(sawCatchingUp, "/status said catching_up while syncing");
  const switched =
    /caught up: switching to consensus\s.*height=(\d+) maxPeerHeight=(\d+) blocksSynced=(\d+)/.exec(
      full.output,
    )!;
  const syncedTo = BigInt(switched[1]!);
  assert.ok(syncedTo >= TARGET - 2n, `synced to ${syncedTo}`);
  assert.equal(Number(switched[3]), Number(syncedTo));
  // Consensus starts at the next height of the synced chain.
  await full.waitFor(
    () => new RegExp(`consensus started\\s.*height=${syncedTo + 1n} `).test(full.output),
    `consensus at height ${syncedTo + 1n}`,
  );
  assertSameChain(full, syncedTo);
  assert.match(full.output, /block sync progress\s.*height=\d+ target=\d+ blocksPerSecond=[\d.]+ eta=\S+/);
  // Following: the consensus gossip reactor brings the heights made since, with the same hashes.
  const later = syncedTo + 30n;
  await full.waitFor(() => full.height >= later, `height ${later}`, 120_000);
  assertSameChain(full, later);
  const { heights } = committedHashes(full.output);
  assert.equal(new Set(heights).size, heights.length, "no height applied twice");
  full.kill("SIGTERM");
  await full.exited;
});

test("a full node killed with SIGKILL mid-sync resumes at the next height after a restart", {
  timeout: 300_000,
}, async () => {
  const home = await fullNodeHome();
  const first = new NodeProcess(home);
  await first.waitFor(() => first.height >= 150n, "150 synced blocks", 120_000);
  first.kill("SIGKILL");
  await first.exited;
  const before = committedHashes(first.output).heights;
  const last = before.at(-1)!;
  assert.deepEqual(
    before,
    Array.from({ length: Number(last) }, (_, i) => BigInt(i + 1)),
  );
  assert.ok(!first.output.includes("caught up: switching"), "killed before the switch");

  const second = new NodeProcess(home);
  await second.waitFor(
    () => second.output.includes("caught up: switching to consensus"),
    "the switch",
    180_000,
  );
  const after = committedHashes(second.output).heights;
  // The kill can land after a block was stored and applied but before its log line: the restart
  // then finds it done (handshake) and block sync goes on after it. Never a height twice, never a gap.
  assert.ok(after[0] === last + 1n || after[0] === last + 2n, `resumed at ${after[0]} after ${last}`);
  assert.deepEqual(
    after,
    Array.from({ length: after.length }, (_, i) => after[0]! + BigInt(i)),
  );
  const status = (await second.rpc("/status")) as { result: { sync_info: { latest_block_height: string } } };
  const synced = BigInt(status.result.sync_info.latest_block_height);
  assert.ok(synced >= TARGET - 2n);
  const ours = committedHashes(first.output + second.output).byHeight;
  const theirs = committedHashes(validator!.output).byHeight;
  for (let h = 1n; h <= synced; h++) {
    if (!ours.has(h)) {
      // The one height applied before the kill without its line: compare through the RPC.
      const block = (await second.rpc(`/block?height=${h}`)) as { result: { block_id: { hash: string } } };
      assert.equal(block.result.block_id.hash, theirs.get(h)!.split("/")[0], `block hash at ${h}`);
      continue;
    }
    assert.equal(ours.get(h), theirs.get(h), `block/app hash at height ${h}`);
  }
  second.kill("SIGTERM");
  await second.exited;
});
