import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { defaultConfig } from "../../src/config/config-defaults.js";
import { configFromToml, loadConfig } from "../../src/config/config-loader.js";
import { allKeys } from "../../src/config/config-schema.js";
import { configToToml } from "../../src/config/config-toml-writer.js";
import { tempFolder } from "../fixtures/temp-folder.js";

test("the defaults are Tendermint v0.34's", () => {
  const config = defaultConfig("m");
  assert.equal(config.proxy_app, "tcp://127.0.0.1:26658");
  assert.equal(config.rpc.laddr, "tcp://127.0.0.1:26657");
  assert.equal(config.p2p.laddr, "tcp://0.0.0.0:26656");
  assert.equal(config.consensus.timeout_propose, 3000);
  assert.equal(config.consensus.timeout_commit, 1000);
  assert.equal(config.statesync.trust_period, 168 * 3600 * 1000);
  assert.equal(config.mempool["max_txs_bytes"], 1073741824);
  assert.equal(config.rpc.compat, "seed");
  assert.equal(config.instrumentation.prometheus_listen_addr, ":26660");
  assert.deepEqual(config.rpc.cors_allowed_methods, ["HEAD", "GET", "POST"]);
});

test("the written file has a comment above every key and reads back to the same config", () => {
  const config = defaultConfig("my-node");
  config.consensus.timeout_propose = 90_000;
  config.p2p.seeds = "0123456789abcdef0123456789abcdef01234567@127.0.0.1:26656";
  config.rpc.cors_allowed_origins = ["*"];
  const text = configToToml(config);
  assert.match(text, /timeout_propose = "1m30s"/);
  assert.match(text, /trust_period = "168h0m0s"/);
  assert.match(text, /chunk_fetchers = "4"/);
  const lines = text.split("\n");
  for (const { key } of allKeys()) {
    const index = lines.findIndex((line) => line.startsWith(`${key} = `));
    assert.ok(index > 0, `key ${key} written`);
    assert.match(lines[index - 1] as string, /^# \S/, `comment above ${key}`);
  }
  const { config: back, warnings } = configFromToml(text, "config.toml");
  assert.deepEqual(back, config);
  assert.deepEqual(warnings, []);
});

test("flags override the file and are converted per key", () => {
  const text = 'proxy_app = "kvstore"\n[consensus]\ncreate_empty_blocks = true\n';
  const { config } = configFromToml(text, "config.toml", {
    proxy_app: "noop",
    "consensus.create_empty_blocks": false,
    "consensus.create_empty_blocks_interval": "5s",
    "consensus.double_sign_check_height": "3",
    "rpc.unsafe": true,
  });
  assert.equal(config.proxy_app, "noop");
  assert.equal(config.consensus.create_empty_blocks, false);
  assert.equal(config.consensus.create_empty_blocks_interval, 5000);
  assert.equal(config.consensus.double_sign_check_height, 3);
  assert.equal(config.rpc.unsafe, true);
});

test("unknown keys and sections are warnings naming them", () => {
  const text = 'bogus = 1\n[rpc]\nlistenaddr = "x"\n[nosuch]\na = 1\n';
  const { warnings } = configFromToml(text, "/h/config/config.toml");
  assert.deepEqual(warnings, [
    "/h/config/config.toml: unknown key bogus (ignored)",
    "/h/config/config.toml: unknown key [rpc] listenaddr (ignored)",
    "/h/config/config.toml: unknown section [nosuch] (ignored)",
  ]);
});

test("every problem of a file is listed in one error", () => {
  const text = '[consensus]\ntimeout_propose = 42\ntimeout_commit = "1x"\n[p2p]\npex = "yes"\n';
  assert.throws(
    () => configFromToml(text, "config.toml"),
    (error: Error & { code?: string }) => {
      assert.equal(error.code, "CONFIG_INVALID");
      const lines = error.message.split("\n");
      assert.equal(lines.length, 3);
      assert.equal(
        lines[0],
        'config.toml: [consensus] timeout_propose: expected a Go duration like "3s", got 42',
      );
      return true;
    },
  );
});

test("loadConfig writes the defaults when asked and the file is missing", () => {
  const home = tempFolder("rxbft-config-");
  const first = loadConfig(home, {}, { writeIfMissing: true, defaultMoniker: "alpha" });
  assert.equal(first.fileExisted, false);
  assert.ok(existsSync(first.file));
  const second = loadConfig(home, { moniker: "beta" });
  assert.equal(second.fileExisted, true);
  assert.equal(second.config.moniker, "beta");
  assert.match(readFileSync(first.file, "utf8"), /moniker = "alpha"/);
});

test("loadConfig reads a file in the home's config directory", () => {
  const home = tempFolder("rxbft-config-");
  mkdirSync(join(home, "config"));
  writeFileSync(join(home, "config", "config.toml"), '[rpc]\ncompat = "tendermint"\n');
  assert.equal(loadConfig(home).config.rpc.compat, "tendermint");
});
