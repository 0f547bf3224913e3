// Mempool gossip between real rxbft processes: a tx sent to one node of a 3-validator loopback
// testnet reaches the mempools of the other two through channel 0x30 (each admits it after its
// own CheckTx). Whether it is then committed needs consensus gossip; either way every node must
// have had it: it is found pending, or committed, on each.
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";
import { killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, readConfigValue, setConfig, waitForPeers } from "./p2p-harness.js";

after(killAllNodes);

async function seen(node: NodeProcess, txHex: string, hashHex: string): Promise<boolean> {
  const pending = (await node.rpc("/unconfirmed_txs?limit=100")) as { result?: { txs: string[] } };
  const b64 = Buffer.from(txHex, "hex").toString("base64");
  if (pending.result?.txs.includes(b64)) return true;
  const found = (await node.rpc(`/tx?hash=0x${hashHex}`)) as { result?: unknown };
  return found.result !== undefined;
}

test("a tx sent to one node is admitted by the others (mempool gossip on 0x30)", async () => {
  const out = tempHome("rxbft-mempool-gossip-");
  const made = await runCli([
    "testnet",
    "--v",
    "3",
    "--o",
    out,
    "--chain-id",
    "gossip-net",
    "--starting-port",
    "31000",
  ]);
  assert.equal(made.code, 0, made.stderr);
  const homes = [0, 1, 2].map((i) => join(out, `node${i}`));
  const ports = await freePorts(3);
  const fixed = homes.map((h) => readConfigValue(h, "p2p", "laddr").split(":").pop()!);
  for (const [i, home] of homes.entries()) {
    let peers = readConfigValue(home, "p2p", "persistent_peers");
    for (const [j, port] of fixed.entries()) peers = peers.replace(`:${port}`, `:${ports[j]}`);
    setConfig(home, "p2p", { laddr: `tcp://127.0.0.1:${ports[i]}`, persistent_peers: peers });
  }
  const nodes = homes.map((h) => new NodeProcess(h, ["--p2p.laddr=config"]));
  await Promise.all(nodes.map((n) => waitForPeers(n, 2, 20_000)));

  const txs = ["gossip=1", "gossip=2", "gossip=3"].map((t) => Buffer.from(t).toString("hex"));
  const hashes: string[] = [];
  for (const [i, tx] of txs.entries()) {
    // each tx to a different node: gossip goes every way
    const r = (await nodes[i]!.rpc(`/broadcast_tx_sync?tx=0x${tx}`)) as {
      result?: { code: number | string; hash: string };
    };
    assert.equal(String(r.result?.code), "0", JSON.stringify(r));
    hashes.push(r.result!.hash);
  }
  const deadline = Date.now() + 15_000;
  const missing = () =>
    Promise.all(
      nodes.flatMap((n, ni) =>
        txs.map(async (tx, ti) => ((await seen(n, tx, hashes[ti]!)) ? [] : [`node${ni} lacks tx ${ti}`])),
      ),
    ).then((r) => r.flat());
  let left = await missing();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    left = await missing();
  }
  assert.deepEqual(left, [], nodes.map((n) => n.output.slice(-2000)).join("\n----\n"));
  for (const n of nodes) n.kill("SIGTERM");
  await Promise.all(nodes.map((n) => n.exited));
});
