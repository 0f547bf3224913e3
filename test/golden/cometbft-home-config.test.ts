// A CometBFT v0.34.35 home's config.toml, as its `init` writes it (comments removed), is read by
// rxbft as it is: every key either understood with CometBFT's meaning or, for the two mempool
// keys v0.34.35 added after v0.34.24, warned about by name and ignored. A mixed network's
// CometBFT homes and an operator moving a node between the two rest on this.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { configFromToml } from "../../src/config/config-loader.js";

const FILE = "/homes/cmt/config/config.toml";
const TEXT = readFileSync(new URL("../fixtures/cometbft/v0.34.35-init-config.toml", import.meta.url), "utf8");

test("a CometBFT v0.34.35 init config.toml loads, warning only about v0.34.35's two new mempool keys", () => {
  const { config, warnings } = configFromToml(TEXT, FILE);
  assert.deepEqual(
    warnings.map((w) => w.replace(`${FILE}: `, "")),
    [
      "unknown key [mempool] experimental_max_gossip_connections_to_persistent_peers (ignored)",
      "unknown key [mempool] experimental_max_gossip_connections_to_non_persistent_peers (ignored)",
    ],
  );
  assert.equal(config.proxy_app, "tcp://127.0.0.1:26658");
  assert.equal(config.rpc.laddr, "tcp://127.0.0.1:26657");
  assert.equal(config.p2p.laddr, "tcp://0.0.0.0:26656");
  assert.equal(config.p2p.send_rate, 5120000);
  assert.equal(config.p2p.flush_throttle_timeout, 100);
  assert.equal(config.mempool.size, 5000);
  assert.equal(config.mempool.max_tx_bytes, 1048576);
  assert.equal(config.consensus.timeout_propose, 3000);
  assert.equal(config.consensus.timeout_commit, 1000);
  assert.equal(config.consensus.create_empty_blocks, true);
});
