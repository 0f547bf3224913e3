// Peers an operator names: a persistent peer killed and brought back is redialled on v0.34's
// schedule; dial_peers (unsafe) connects a running node, and net_info shows it in both RPC forms.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, netInfo, setConfig, waitForPeers } from "./p2p-harness.js";

after(killAllNodes);

async function nodeIdOf(home: string): Promise<string> {
  const out = await runCli(["show_node_id", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  return out.stdout.trim();
}

async function twoHomes(prefix: string): Promise<{ homes: string[]; ports: number[]; ids: string[] }> {
  const homes = await Promise.all([0, 1].map(() => initFastHome({}, prefix)));
  copyFileSync(join(homes[0]!, "config/genesis.json"), join(homes[1]!, "config/genesis.json"));
  const ports = await freePorts(2);
  const ids = await Promise.all(homes.map(nodeIdOf));
  return { homes, ports, ids };
}

test("a killed persistent peer is redialled when it returns", async () => {
  const { homes, ports, ids } = await twoHomes("rxbft-p2p-persistent-");
  setConfig(homes[0]!, "p2p", {
    laddr: `tcp://127.0.0.1:${ports[0]}`,
    persistent_peers: `${ids[1]}@127.0.0.1:${ports[1]}`,
    pex: false,
  });
  setConfig(homes[1]!, "p2p", { laddr: `tcp://127.0.0.1:${ports[1]}`, pex: false });
  const a = new NodeProcess(homes[0]!, ["--p2p.laddr=config"]);
  let b = new NodeProcess(homes[1]!, ["--p2p.laddr=config"]);
  await waitForPeers(a, 1, 20_000, [ids[1]!]);
  b.kill("SIGKILL");
  await b.exited;
  const deadline = Date.now() + 10_000;
  while ((await netInfo(a)).peers.length > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  assert.equal((await netInfo(a)).peers.length, 0, "the lost peer left net_info");
  await a.waitFor(
    () => /dial failed, will redial\s.*failures=1/.test(a.output),
    "a redial scheduled after the failed dial",
    15_000,
  );
  b = new NodeProcess(homes[1]!, ["--p2p.laddr=config"]);
  const peers = await waitForPeers(a, 1, 30_000, [ids[1]!]);
  assert.equal(peers[0]!.is_outbound, true, "a dialled it again");
  assert.match(a.output, /Stopping peer\s.*peer=[0-9a-f]{40}.*reason=/);
  for (const n of [a, b]) n.kill("SIGTERM");
  await Promise.all([a.exited, b.exited]);
});

test("dial_peers connects a running node; net_info lists it in both RPC forms", async () => {
  const { homes, ports, ids } = await twoHomes("rxbft-p2p-dial-");
  setConfig(homes[0]!, "p2p", { laddr: `tcp://127.0.0.1:${ports[0]}`, addr_book_strict: false });
  setConfig(homes[0]!, "rpc", { unsafe: true });
  setConfig(homes[1]!, "p2p", { laddr: `tcp://127.0.0.1:${ports[1]}`, addr_book_strict: false });
  setConfig(homes[1]!, "rpc", { compat: "tendermint" });
  const c = new NodeProcess(homes[0]!, ["--p2p.laddr=config"]);
  const d = new NodeProcess(homes[1]!, ["--p2p.laddr=config"]);
  await Promise.all([c.rpc("/health"), d.rpc("/health")]);
  assert.equal((await netInfo(c)).peers.length, 0);
  const bad = (await c.rpc(`/dial_peers?peers=["127.0.0.1:${ports[1]}"]`)) as { error?: { data?: string } };
  assert.match(JSON.stringify(bad.error), /does not contain ID/);
  const ok = (await c.rpc(`/dial_peers?peers=["${ids[1]}@127.0.0.1:${ports[1]}"]&persistent=true`)) as {
    result?: { log: string };
  };
  assert.equal(ok.result?.log, "Dialing peers in progress. See /net_info for details");
  const seen = await waitForPeers(c, 1, 10_000, [ids[1]!]);
  // the seed form adds node_id and url to v0.34's fields
  assert.equal(seen[0]!.node_id, ids[1]);
  const other = await waitForPeers(d, 1, 10_000, [ids[0]!]);
  assert.equal(other[0]!.node_id, undefined, "tendermint form: v0.34's fields only");
  assert.equal(other[0]!.is_outbound, false);
  // dial_peers is unsafe: the node without rpc.unsafe does not serve it
  const refused = (await (
    await fetch(d.rpcUrl!, {
      method: "POST",
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "dial_peers",
        params: { peers: [`${ids[0]}@127.0.0.1:${ports[0]}`] },
      }),
    })
  ).json()) as { error?: { message: string } };
  assert.match(refused.error?.message ?? "", /Method not found/);
  for (const n of [c, d]) n.kill("SIGTERM");
  await Promise.all([c.exited, d.exited]);
});
