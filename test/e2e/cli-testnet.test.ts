// `rxbft testnet`: node homes for a whole network, on one machine or several.
import assert from "node:assert/strict";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config/config-loader.js";
import { parseGenesisFile } from "../../src/types/genesis.js";
import { nodeIdOf, readNodeKey } from "../../src/types/key-file-node-key.js";
import { readPrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import { runCli, tempHome } from "./cli-harness.js";

test("one machine: distinct ports per node, shared genesis, every peer listed", async () => {
  const out = tempHome("rxbft-testnet-");
  const result = await runCli([
    "testnet",
    "--v",
    "3",
    "--n",
    "1",
    "--o",
    out,
    "--chain-id",
    "net-1",
    "--starting-port",
    "30000",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /Successfully initialised 4 node directories/);

  const genesisText = readFileSync(join(out, "node0/config/genesis.json"), "utf8");
  const genesis = parseGenesisFile(join(out, "node0/config/genesis.json"));
  assert.equal(genesis.chainId, "net-1");
  assert.equal(genesis.validators.length, 3);
  const ports = new Set<string>();
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    const home = join(out, `node${i}`);
    assert.equal(readFileSync(join(home, "config/genesis.json"), "utf8"), genesisText, "one shared genesis");
    assert.equal(statSync(join(home, "config/priv_validator_key.json")).mode & 0o777, 0o600);
    ids.push(nodeIdOf(readNodeKey(join(home, "config/node_key.json")).publicKey));
    const { config } = loadConfig(home);
    assert.equal(config.moniker, `node${i}`);
    assert.equal(config.p2p.addr_book_strict, false);
    assert.equal(config.p2p.allow_duplicate_ip, true);
    assert.equal(config.p2p.laddr, `tcp://127.0.0.1:${30000 + 100 * i}`);
    assert.equal(config.rpc.laddr, `tcp://127.0.0.1:${30001 + 100 * i}`);
    assert.equal(config.proxy_app, `tcp://127.0.0.1:${30002 + 100 * i}`);
    assert.equal(config.instrumentation.prometheus_listen_addr, `:${30004 + 100 * i}`);
    for (const port of [
      config.p2p.laddr,
      config.rpc.laddr,
      config.proxy_app,
      config.instrumentation.prometheus_listen_addr,
    ]) {
      const number = port.split(":").pop() as string;
      assert.equal(ports.has(number), false, `port ${number} used once`);
      ports.add(number);
    }
    if (i < 3) {
      const key = readPrivValidatorKey(join(home, "config/priv_validator_key.json"));
      assert.deepEqual(genesis.validators[i]!.pubKey, key.publicKey);
      assert.equal(genesis.validators[i]!.power, 1n);
      assert.equal(genesis.validators[i]!.name, `node${i}`);
    }
  }
  for (let i = 0; i < 4; i++) {
    const peers = loadConfig(join(out, `node${i}`)).config.p2p.persistent_peers.split(",");
    assert.deepEqual(
      peers,
      ids.flatMap((id, j) => (j === i ? [] : [`${id}@127.0.0.1:${30000 + 100 * j}`])),
    );
  }
});

test("several machines: consecutive IPs, one p2p port; refuses to overwrite", async () => {
  const out = tempHome("rxbft-testnet-");
  const args = ["testnet", "--v", "2", "--o", out, "--starting-ip", "192.168.10.2", "--p2p-port", "26600"];
  const result = await runCli(args);
  assert.equal(result.code, 0, result.stderr);
  const { config } = loadConfig(join(out, "node0"));
  assert.equal(config.p2p.laddr, "tcp://0.0.0.0:26600");
  assert.match(config.p2p.persistent_peers, /^[0-9a-f]{40}@192\.168\.10\.3:26600$/);
  assert.match(loadConfig(join(out, "node1")).config.p2p.persistent_peers, /@192\.168\.10\.2:26600$/);
  const again = await runCli(args);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /^Error: .*node0: already exists; choose another --o or remove it/);
});

test("bad testnet flags are one clear line", async () => {
  const out = tempHome("rxbft-testnet-");
  const result = await runCli(["testnet", "--v", "2", "--o", out, "--hostname", "a.example"]);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, "Error: flag --hostname: expected one hostname per node (2), got 1\n");
});
