import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { createTestnet, type TestnetOptions } from "../../src/cli/testnet.js";
import { loadConfig } from "../../src/config/config-loader.js";
import { parseGenesisFile } from "../../src/types/genesis.js";
import { tempFolder } from "../fixtures/temp-folder.js";

function options(patch: Partial<TestnetOptions>): TestnetOptions {
  return {
    validators: 2,
    nonValidators: 0,
    outputDir: join(tempFolder("rxbft-testnet-"), "net"),
    nodeDirPrefix: "node",
    initialHeight: 0n,
    populatePersistentPeers: true,
    hostnameSuffix: "",
    p2pPort: 26656,
    startingPort: 26656,
    randomMonikers: false,
    ...patch,
  };
}

test("a config template is the base of every node; per-node settings still apply", () => {
  const template = join(tempFolder("rxbft-template-"), "config.toml");
  writeFileSync(template, '[consensus]\ntimeout_commit = "250ms"\n[p2p]\npex = false\n');
  const report = createTestnet(
    options({ configTemplate: template, validators: 1, nonValidators: 1, initialHeight: 100n }),
  );
  for (const node of report.nodes) {
    const { config } = loadConfig(node.dir);
    assert.equal(config.consensus.timeout_commit, 250);
    assert.equal(config.p2p.pex, false);
    assert.equal(config.moniker, node.name);
  }
  const genesis = parseGenesisFile(join(report.nodes[0]!.dir, "config/genesis.json"));
  assert.equal(genesis.validators.length, 1, "the non-validator is not in genesis");
  assert.equal(genesis.initialHeight, 100n);
  assert.equal(report.nodes[1]!.validator, false);
});

test("hostnames from a prefix and suffix; no peers when not populated", () => {
  const report = createTestnet(
    options({
      hostnamePrefix: "val",
      hostnameSuffix: ".lan",
      populatePersistentPeers: false,
      p2pPort: 27000,
    }),
  );
  assert.deepEqual(
    report.nodes.map((node) => `${node.host}:${node.p2pPort}`),
    ["val0.lan:27000", "val1.lan:27000"],
  );
  assert.equal(loadConfig(report.nodes[0]!.dir).config.p2p.persistent_peers, "");
  assert.equal(loadConfig(report.nodes[0]!.dir).config.mempool.relay_hold, 0, "no mesh: relays at once");
});

test("a full mesh (peers populated) holds relayed txs: every node already has its sender's", () => {
  const report = createTestnet(options({ validators: 3, nonValidators: 1 }));
  for (const node of report.nodes) {
    const { config } = loadConfig(node.dir);
    assert.equal(config.p2p.persistent_peers.split(",").length, 3);
    assert.equal(config.mempool.relay_hold, 3000);
  }
});

test("bounds: no nodes, too many nodes, ports past 65535, a bad IP", () => {
  assert.throws(() => createTestnet(options({ validators: 0 })), /flag --v: expected at least one node/);
  assert.throws(() => createTestnet(options({ validators: 300 })), /flag --v: expected at most 256 nodes/);
  assert.throws(
    () => createTestnet(options({ validators: 10, startingPort: 65000 })),
    /flag --starting-port: expected a port such that 10 nodes/,
  );
  assert.throws(
    () => createTestnet(options({ startingIp: "10.0.0" })),
    /flag --starting-ip: expected an IPv4 address/,
  );
  assert.throws(
    () => createTestnet(options({ chainId: "x".repeat(50) })),
    /flag --chain-id: expected a non-empty chain id of at most 49/,
  );
});
