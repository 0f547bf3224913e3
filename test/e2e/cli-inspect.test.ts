// `rxbft inspect` on the home of a node that ran and stopped: it refuses while the node runs, then
// serves the read routes in both result forms with the answers the node gave, answers a clear
// error for routes that need a running node, and leaves every file of the home as it was.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { RXBFT_BIN, runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);
const started: ChildProcess[] = [];
after(() => {
  for (const c of started) if (c.exitCode === null) c.kill("SIGKILL");
});

/** Every file under `dir` with its size and content hash. */
function fingerprint(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else out.set(full, `${st.size}:${createHash("sha256").update(readFileSync(full)).digest("hex")}`);
    }
  };
  walk(dir);
  return out;
}

async function startInspect(
  home: string,
  extra: string[] = [],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [RXBFT_BIN, "inspect", "--home", home, "--rpc.laddr", "tcp://127.0.0.1:0", ...extra],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  started.push(child);
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inspect did not start:\n${output}`)), 20_000);
    const on = (c: Buffer) => {
      output += c.toString();
      const m = /serving the stores read-only\s.*address=tcp:\/\/([0-9.]+:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(`http://${m[1]}`);
      }
    };
    child.stdout!.on("data", on);
    child.stderr!.on("data", on);
    child.on("exit", () => reject(new Error(`inspect exited:\n${output}`)));
  });
  return { child, url, output: () => output };
}

// biome-ignore lint/suspicious/noExplicitAny: the answers are read field by field, as JSON.
type Json = any;
const get = async (url: string) => (await (await fetch(url)).json()) as { result?: Json; error?: Json };

test("inspect serves a stopped node's stores read-only, and refuses a running one", {
  timeout: 120_000,
}, async () => {
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-inspect-");
  const node = new NodeProcess(home);
  await node.waitFor(() => node.rpcUrl !== undefined && node.height >= 1n, "the RPC server");
  const committed = await get(`${node.rpcUrl}/broadcast_tx_commit?tx="inspect=yes"`);
  const txHash: string = committed.result.hash;
  const txHeight = Number(committed.result.height);
  await node.waitFor(() => node.height >= BigInt(txHeight + 1), "a block after the tx");

  const refused = await runCli(["inspect", "--home", home, "--rpc.laddr", "tcp://127.0.0.1:0"]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /refusing to inspect it: a node \(pid \d+\) is running in this home/);

  const fromNode = {
    block: await get(`${node.rpcUrl}/block?height=${txHeight}`),
    commit: await get(`${node.rpcUrl}/commit?height=${txHeight}`),
    validators: await get(`${node.rpcUrl}/validators?height=${txHeight}`),
    results: await get(`${node.rpcUrl}/block_results?height=${txHeight}`),
    tx: await get(`${node.rpcUrl}/tx?hash=0x${txHash}`),
  };
  node.kill("SIGTERM");
  assert.equal((await node.exited).code, 0);
  const before = fingerprint(home);

  const spec = await startInspect(home);
  const status = await get(`${spec.url}/status`);
  assert.ok(Number(status.result.sync_info.latest_block_height) >= txHeight + 1);
  assert.equal(status.result.node_info.network, "node-e2e");
  assert.deepEqual(await get(`${spec.url}/block?height=${txHeight}`), fromNode.block);
  assert.deepEqual(await get(`${spec.url}/commit?height=${txHeight}`), fromNode.commit);
  assert.deepEqual(await get(`${spec.url}/validators?height=${txHeight}`), fromNode.validators);
  assert.deepEqual(await get(`${spec.url}/block_results?height=${txHeight}`), fromNode.results);
  assert.deepEqual(await get(`${spec.url}/tx?hash=0x${txHash}`), fromNode.tx);
  const search = await get(`${spec.url}/tx_search?query="tx.height=${txHeight}"`);
  assert.equal(search.result.total_count, "1");
  const blocks = await get(`${spec.url}/blockchain?minHeight=1&maxHeight=2`);
  assert.equal(blocks.result.block_metas.length, 2);
  assert.ok((await get(`${spec.url}/genesis`)).result.genesis);
  assert.ok((await get(`${spec.url}/consensus_params?height=1`)).result.consensus_params);
  assert.ok((await get(`${spec.url}/block_search?query="block.height>0"`)).result.blocks.length > 0);
  const hash = fromNode.block.result.block_id.hash;
  assert.equal((await get(`${spec.url}/block_by_hash?hash=0x${hash}`)).result.block_id.hash, hash);
  for (const route of [
    "broadcast_tx_sync?tx=0x01",
    "abci_info",
    "abci_query?data=0x01",
    "consensus_state",
    "net_info",
    "num_unconfirmed_txs",
  ]) {
    const r = await get(`${spec.url}/${route}`);
    const name = route.split("?")[0];
    assert.ok(r.error, `${name} answers an error`);
    assert.match(
      r.error.data,
      new RegExp(`^${name} needs a running node: rxbft inspect serves the stores of a stopped node`),
    );
  }
  spec.child.kill("SIGTERM");
  assert.equal(await new Promise((r) => spec.child.once("exit", r)), 0);

  // The other result form, from the same stores.
  const tm = await startInspect(home, ["--rpc.compat", "tendermint"]);
  const v = await get(`${tm.url}/validators?height=${txHeight}`);
  assert.equal(v.result.validators[0].pub_key.type, "tendermint/PubKeyEd25519");
  assert.equal(typeof v.result.validators[0].voting_power, "string");
  tm.child.kill("SIGINT");
  assert.equal(await new Promise((r) => tm.child.once("exit", r)), 0);

  assert.deepEqual(fingerprint(home), before, "no file of the home changed");
});
