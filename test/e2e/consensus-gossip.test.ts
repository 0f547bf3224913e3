// The consensus reactor on real processes: the four validators of `rxbft testnet --v 4` (moved to
// free loopback ports) commit the same blocks through gossip alone; one of them, stopped while the
// others commit a few heights and then restarted, catches up by consensus catch-up (stored
// commits and block parts from its peers); a non-validator node (testnet --n 1) started late with
// the genesis file and one persistent peer follows the chain the same way.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";
import { killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, readConfigValue, setConfig } from "./p2p-harness.js";

after(killAllNodes);

const heightOf = (n: NodeProcess) => n.height;
const waitHeight = (n: NodeProcess, h: bigint, what: string, timeoutMs = 60_000) =>
  n.waitFor(() => n.height >= h, `${what} to commit height ${h}`, timeoutMs);

/** Every height committed by more than one node has one block hash. */
function assertSameHashes(nodes: readonly NodeProcess[]): number {
  const byHeight = new Map<bigint, string>();
  let compared = 0;
  for (const [i, n] of nodes.entries()) {
    for (const c of n.committed) {
      const seen = byHeight.get(c.height);
      if (seen === undefined) byHeight.set(c.height, c.hash);
      else {
        assert.equal(c.hash, seen, `node${i} committed another block at height ${c.height}`);
        compared++;
      }
    }
  }
  return compared;
}

test("testnet --v 4 --n 1: validators commit the same blocks by gossip; a restarted validator and a full node catch up", async () => {
  const out = tempHome("rxbft-gossip-net-");
  const made = await runCli([
    "testnet",
    "--v",
    "4",
    "--n",
    "1",
    "--o",
    out,
    "--chain-id",
    "gossip-net",
    "--starting-port",
    "30000",
  ]);
  assert.equal(made.code, 0, made.stderr);
  const homes = [0, 1, 2, 3, 4].map((i) => join(out, `node${i}`));
  const ports = await freePorts(5);
  const fixed = homes.map((h) => readConfigValue(h, "p2p", "laddr").split(":").pop()!);
  const moved = (peers: string) => {
    let s = peers;
    for (const [j, port] of fixed.entries()) s = s.replace(`:${port}`, `:${ports[j]}`);
    return s;
  };
  for (const [i, home] of homes.entries()) {
    let peers = moved(readConfigValue(home, "p2p", "persistent_peers"));
    // The full node is given one persistent peer (node0) and nothing else.
    if (i === 4) peers = peers.split(",").find((p) => p.endsWith(`:${ports[0]}`))!;
    setConfig(home, "p2p", { laddr: `tcp://127.0.0.1:${ports[i]}`, persistent_peers: peers, pex: false });
  }
  const start = (i: number) => new NodeProcess(homes[i]!, ["--p2p.laddr=config"]);
  const nodes = [0, 1, 2, 3].map(start);

  // All four commit through the gossip (each validator holds 1/4 of the power: none can alone).
  await Promise.all(nodes.map((n, i) => waitHeight(n, 3n, `node${i}`)));
  console.log(`4 validators at heights ${nodes.map(heightOf).join(",")}`);

  // node3 stops; the other three (3/4 of the power) keep committing.
  const stoppedAt = nodes[3]!.height;
  nodes[3]!.kill("SIGTERM");
  await nodes[3]!.exited;
  const target = stoppedAt + 5n;
  await Promise.all(nodes.slice(0, 3).map((n, i) => waitHeight(n, target, `node${i} without node3`)));

  // node3 restarts behind and catches up to where the others are.
  const restarted = start(3);
  const lead = nodes[0]!.height;
  await waitHeight(restarted, lead, "the restarted node3", 60_000);
  console.log(`node3 stopped at ${stoppedAt}, restarted, caught up to ${restarted.height}`);

  // The full node (not in the validator set) follows from height 1.
  const full = start(4);
  const now = nodes[0]!.height;
  await waitHeight(full, now, "the full node4", 60_000);
  // (testnet gives it a key too, but not a place in the genesis validator set: it has no power)
  const status = (await full.rpc("/status")) as { result: { validator_info: { voting_power: string } } };
  assert.equal(status.result.validator_info.voting_power, "0");
  console.log(`full node followed to ${full.height}`);

  // And everyone keeps going together, on the same blocks.
  const live = [nodes[0]!, nodes[1]!, nodes[2]!, restarted, full];
  const last = nodes[0]!.height + 2n;
  await Promise.all(live.map((n, i) => waitHeight(n, last, `node${i} at the end`)));
  const compared = assertSameHashes([...nodes, restarted, full]);
  assert.ok(compared > 20, `compared ${compared} committed blocks`);
  for (const n of live) n.kill("SIGTERM");
  await Promise.all(live.map((n) => n.exited));
});
