// A lying peer during block sync (issue 14, bad input): a validator runs ahead; a test-only peer
// (test/fixtures/lying-blocksync-peer.ts) relays the validator's status and blocks with each
// block's header changed, so its hash is not the one the next block's commit signed. A fresh full
// node that asks the liar first, then has both as persistent peers, syncs: it drops the liar with
// a reason naming the failed block, takes its blocks from the validator, switches to consensus,
// and holds the validator's block hash and app hash at every height.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { runCli, tempHome } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, setConfig } from "./p2p-harness.js";

const LIAR = fileURLToPath(new URL("../fixtures/lying-blocksync-peer.ts", import.meta.url));
const COMMITTED = /committed block\s.*height=(\d+) .*hash=([0-9A-F]{64}) appHash=([0-9A-F]*)/g;
const TARGET = 200n;

let liar: ChildProcess | undefined;
after(() => {
  if (liar && liar.exitCode === null && liar.signalCode === null) liar.kill("SIGKILL");
  killAllNodes();
});

function hashesByHeight(output: string): Map<bigint, string> {
  const byHeight = new Map<bigint, string>();
  for (const m of output.matchAll(COMMITTED)) byHeight.set(BigInt(m[1]!), `${m[2]}/${m[3]}`);
  return byHeight;
}

async function nodeId(home: string): Promise<string> {
  const out = await runCli(["show_node_id", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

async function homeWithGenesisOf(validatorHome: string, prefix: string): Promise<string> {
  const home = tempHome(prefix);
  const out = await runCli(["init", "--home", home, "--chain-id", "node-e2e"]);
  assert.equal(out.code, 0, out.stderr);
  copyFileSync(join(validatorHome, "config", "genesis.json"), join(home, "config", "genesis.json"));
  return home;
}

test("a peer serving forged blocks is dropped with a reason and the sync completes from the honest one", {
  timeout: 300_000,
}, async () => {
  const validatorHome = await initFastHome({ timeout_commit: "10ms" }, "rxbft-liar-val-");
  const [validatorPort, liarPort] = await freePorts(2);
  const validatorId = await nodeId(validatorHome);
  // Three nodes on 127.0.0.1: each must accept more than one peer from that address.
  setConfig(validatorHome, "p2p", { allow_duplicate_ip: true });
  const validator = new NodeProcess(validatorHome, ["--p2p.laddr", `tcp://127.0.0.1:${validatorPort}`]);

  const liarHome = await homeWithGenesisOf(validatorHome, "rxbft-liar-");
  const liarId = await nodeId(liarHome);
  setConfig(liarHome, "p2p", {
    laddr: `tcp://127.0.0.1:${liarPort}`,
    persistent_peers: `${validatorId}@127.0.0.1:${validatorPort}`,
    allow_duplicate_ip: true,
  });
  let liarOutput = "";
  liar = spawn(process.execPath, ["--import", "tsx", LIAR, liarHome, validatorId], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  liar.stdout!.on("data", (c: Buffer) => {
    liarOutput += c.toString();
  });
  liar.stderr!.on("data", (c: Buffer) => {
    liarOutput += c.toString();
  });

  // The full node knows only the liar at first, and is given the validator (dial_peers) once
  // the liar has been asked for a block: named together, the validator could serve the whole
  // chain before the liar's connection was up on a busy machine, and the liar would go unasked.
  const fullHome = await homeWithGenesisOf(validatorHome, "rxbft-liar-full-");
  setConfig(fullHome, "p2p", {
    persistent_peers: `${liarId}@127.0.0.1:${liarPort}`,
    allow_duplicate_ip: true,
  });
  setConfig(fullHome, "rpc", { unsafe: true });
  let full: NodeProcess | undefined;
  try {
    await validator.waitFor(() => validator.height >= TARGET, `height ${TARGET}`, 180_000);
    await validator.waitFor(() => liarOutput.includes("relaying honest="), "the liar to reach the validator");

    full = new NodeProcess(fullHome);
    const node = full;
    await node.waitFor(() => /lied height=\d+/.test(liarOutput), "the liar to be asked for a block", 60_000);
    const dialed = (await node.rpc(
      `/dial_peers?peers=["${validatorId}@127.0.0.1:${validatorPort}"]&persistent=true`,
    )) as { result?: unknown; error?: unknown };
    assert.ok(dialed.result, `dial_peers: ${JSON.stringify(dialed.error)}`);
    await node.waitFor(
      () => node.output.includes("caught up: switching to consensus"),
      "the switch to consensus",
      180_000,
    );
    assert.match(liarOutput, /lied height=\d+/, "the liar was asked for blocks");
    const dropped = new RegExp(
      `dropping peer\\s.*peer=${liarId} reason="blocksync: block (\\d+) failed verification`,
    ).exec(node.output);
    assert.ok(dropped, `the full node dropped the liar for a forged block:\n${node.output.slice(-3000)}`);

    const switched = /caught up: switching to consensus\s.*height=(\d+)/.exec(node.output)!;
    const syncedTo = BigInt(switched[1]!);
    assert.ok(syncedTo >= TARGET - 2n, `synced to ${syncedTo}`);
    const ours = hashesByHeight(node.output);
    const theirs = hashesByHeight(validator.output);
    for (let h = 1n; h <= syncedTo; h++) {
      assert.ok(ours.has(h), `the full node never committed height ${h}`);
      assert.equal(ours.get(h), theirs.get(h), `block/app hash at height ${h}`);
    }
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n--- liar ---\n${liarOutput.slice(-1500)}\n--- full ---\n${full?.output.slice(-3000) ?? ""}`,
    );
  } finally {
    full?.kill("SIGTERM");
    validator.kill("SIGTERM");
    liar.kill("SIGTERM");
    await Promise.all([full?.exited, validator.exited]);
  }
});
