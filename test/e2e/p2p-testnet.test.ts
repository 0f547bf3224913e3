// The four homes of `rxbft testnet --v 4`, started together, find each other through their
// persistent_peers: every node lists the 3 others in net_info within 10 s, with NodeInfo,
// direction, remote IP and connection status. testnet writes fixed ports; the test moves every
// node to free loopback ports first (so parallel runs never collide).
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";
import { killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, netInfo, readConfigValue, setConfig, waitForPeers } from "./p2p-harness.js";

after(killAllNodes);

test("testnet --v 4: each node is connected to the 3 others within 10 s", async () => {
  const out = tempHome("rxbft-p2p-testnet-");
  const made = await runCli([
    "testnet",
    "--v",
    "4",
    "--o",
    out,
    "--chain-id",
    "p2p-net",
    "--starting-port",
    "30000",
  ]);
  assert.equal(made.code, 0, made.stderr);
  const homes = [0, 1, 2, 3].map((i) => join(out, `node${i}`));
  const ports = await freePorts(4);
  const fixed = homes.map((h) => readConfigValue(h, "p2p", "laddr").split(":").pop()!);
  for (const [i, home] of homes.entries()) {
    let peers = readConfigValue(home, "p2p", "persistent_peers");
    for (const [j, port] of fixed.entries()) peers = peers.replace(`:${port}`, `:${ports[j]}`);
    assert.equal(peers.split(",").length, 3);
    setConfig(home, "p2p", { laddr: `tcp://127.0.0.1:${ports[i]}`, persistent_peers: peers });
  }
  const nodes = homes.map((h) => new NodeProcess(h, ["--p2p.laddr=config"]));
  // the clock starts once all four processes are up (their start-up time is not the p2p layer's)
  await Promise.all(nodes.map((n) => n.rpc("/health")));
  const started = Date.now();
  const infos = await Promise.all(nodes.map((n) => waitForPeers(n, 3, 10_000)));
  const elapsed = Date.now() - started;
  const monikers = infos.map((peers) =>
    peers
      .map((p) => p.node_info.moniker)
      .sort()
      .join(","),
  );
  assert.deepEqual(monikers, [
    "node1,node2,node3",
    "node0,node2,node3",
    "node0,node1,node3",
    "node0,node1,node2",
  ]);
  for (const peers of infos) {
    for (const p of peers) {
      assert.equal(p.remote_ip, "127.0.0.1");
      assert.match(p.node_info.listen_addr, /^tcp:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(p.node_info.channels, "40202122233038606100");
      assert.ok(Array.isArray(p.connection_status.Channels) && p.connection_status.Channels.length === 10);
      assert.match(p.connection_status.Duration, /^\d+$/);
    }
    // each pair is connected once: every node is outbound to some and inbound from others, 3 in all
    assert.equal(peers.length, 3);
  }
  const info = await netInfo(nodes[0]!);
  assert.equal(info.listening, true);
  assert.equal(info.n_peers, "3");
  const status = (await nodes[0]!.rpc("/status")) as { result: { node_info: { listen_addr: string } } };
  assert.equal(status.result.node_info.listen_addr, `tcp://127.0.0.1:${ports[0]}`);
  assert.match(nodes[0]!.output, /Added peer\s.*peer=[0-9a-f]{40}/);
  console.log(`4 nodes fully connected after ${elapsed} ms`);
  for (const n of nodes) n.kill("SIGTERM");
  await Promise.all(nodes.map((n) => n.exited));
});
