// Peer exchange end to end: a seed node (seed_mode) and three nodes given only `seeds` find each
// other through PEX (the seed answers once and hangs up; each node dials what it learned).
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, setConfig, waitForPeers } from "./p2p-harness.js";

after(killAllNodes);

async function nodeIdOf(home: string): Promise<string> {
  const out = await runCli(["show_node_id", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

test("a seed plus three nodes given only seeds connect to each other through PEX", async () => {
  const homes = await Promise.all([0, 1, 2, 3].map(() => initFastHome({}, "rxbft-p2p-pex-")));
  // one chain: everyone takes the seed home's genesis
  for (const home of homes.slice(1))
    copyFileSync(join(homes[0]!, "config/genesis.json"), join(home, "config/genesis.json"));
  const ports = await freePorts(4);
  const seedId = await nodeIdOf(homes[0]!);
  for (const [i, home] of homes.entries()) {
    setConfig(home, "p2p", {
      laddr: `tcp://127.0.0.1:${ports[i]}`,
      addr_book_strict: false,
      allow_duplicate_ip: true,
      seed_mode: i === 0,
      seeds: i === 0 ? "" : `${seedId}@127.0.0.1:${ports[0]}`,
    });
  }
  const seed = new NodeProcess(homes[0]!, ["--p2p.laddr=config"]);
  await seed.rpc("/health");
  const nodes: NodeProcess[] = [];
  for (const home of homes.slice(1)) {
    const node = new NodeProcess(home, ["--p2p.laddr=config"]);
    nodes.push(node);
    // each registers with the seed before the next asks it
    await node.waitFor(
      () => /Added peer\s.*direction=outbound/.test(node.output),
      "its seed connection",
      30_000,
    );
  }
  const ids = await Promise.all(homes.slice(1).map(nodeIdOf));
  for (const [i, node] of nodes.entries()) {
    const others = ids.filter((_, j) => j !== i);
    await waitForPeers(node, 2, 45_000, others);
  }
  // the seed answered and hung up: it holds no long-lived connection to them
  assert.match(seed.output, /seed answered the address request|Stopping peer/);
  for (const n of [seed, ...nodes]) n.kill("SIGTERM");
  await Promise.all([seed, ...nodes].map((n) => n.exited));
});
