// Full nodes follow four validators: one written by `rxbft testnet --n 1` (no voting power,
// persistent_peers set), and one a user makes from nothing but the network's genesis.json and a
// `seeds` entry (rxbft init, copy genesis, set seeds). Both reach the validators' height with
// the same block and app hashes, and neither is in the validator set.
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";
import { Network } from "./network-harness.js";
import { killAllNodes, NodeProcess } from "./node-harness.js";
import { freePorts, setConfig } from "./p2p-harness.js";

after(killAllNodes);

test("a testnet full node and a node given only genesis and seeds follow the chain", {
  timeout: 300_000,
}, async () => {
  const net = await Network.create({ validators: 4, fullNodes: 1, prefix: "rxbft-net-full-" });
  const validators = [0, 1, 2, 3];
  net.startAll();

  // a new home: its own keys from `rxbft init`, the network's genesis, one seed
  const home = tempHome("rxbft-net-seeded-");
  const init = await runCli(["init", "--home", home]);
  assert.equal(init.code, 0, init.stderr);
  copyFileSync(join(net.homes[0]!, "config/genesis.json"), join(home, "config/genesis.json"));
  const [port] = await freePorts(1);
  setConfig(home, "p2p", {
    laddr: `tcp://127.0.0.1:${port}`,
    seeds: net.address(0),
    addr_book_strict: false,
    allow_duplicate_ip: true,
  });
  const seeded = new NodeProcess(home, ["--p2p.laddr=config"]);
  try {
    await net.waitForHeight(validators, 3n, 120_000);
    const target = net.commonHeight(validators) + 3n;
    await net.waitForHeight([...validators, 4], target, 120_000);
    await seeded.waitFor(() => seeded.height >= target, `the seeded node at height ${target}`, 120_000);

    assert.deepEqual(await net.compareHashes([0, 4], 1n, target), []);
    for (let h = 1n; h <= target; h++) {
      const c = (await seeded.rpc(`/commit?height=${h}`)) as {
        result: { signed_header: { commit: { block_id: { hash: string } }; header: { app_hash: string } } };
      };
      const want = await net.hashesAt(0, h);
      assert.equal(c.result.signed_header.commit.block_id.hash, want.blockHash, `seeded node, height ${h}`);
      assert.equal(c.result.signed_header.header.app_hash, want.appHash, `seeded node, height ${h}`);
    }

    // neither full node votes: 4 validators, and their own keys have no power
    const vals = await net.rpc<{ total: string; validators: { address: string }[] }>(4, "/validators");
    assert.equal(vals.total, "4");
    for (const node of [net.node(4), seeded]) {
      const status = (await node.rpc("/status")) as {
        result: { validator_info: { address: string; voting_power: string } };
      };
      assert.equal(status.result.validator_info.voting_power, "0");
      assert.ok(!vals.validators.some((v) => v.address === status.result.validator_info.address));
    }
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n${[0, 1, 2, 3, 4].map((i) => net.tail(i)).join("\n")}\n--- seeded ---\n${seeded.output.slice(-3000)}`,
    );
  } finally {
    seeded.kill("SIGTERM");
    await net.stopAll();
    await seeded.exited;
  }
});
