// Bad config.toml inputs: each error must name the file, the key (with its section) and what
// was expected.
import assert from "node:assert/strict";
import { test } from "node:test";
import { configFromToml } from "../../src/config/config-loader.js";
import { ConfigError } from "../../src/config/errors.js";
import { assertConfigRefused } from "./config-refusal.js";

const FILE = "/homes/a/config/config.toml";
const ID = "0123456789abcdef0123456789abcdef01234567";

const cases: { name: string; toml: string; where: string; expected: RegExp }[] = [
  {
    name: "duration as a number",
    toml: "[consensus]\ntimeout_propose = 42",
    where: "[consensus] timeout_propose",
    expected: /expected a Go duration like "3s", got 42/,
  },
  {
    name: "duration without unit",
    toml: '[consensus]\ntimeout_commit = "1000"',
    where: "[consensus] timeout_commit",
    expected: /expected a Go duration.*missing unit/,
  },
  {
    name: "duration with unknown unit",
    toml: '[p2p]\ndial_timeout = "3d"',
    where: "[p2p] dial_timeout",
    expected: /expected a Go duration.*unknown unit "d"/,
  },
  {
    name: "negative duration",
    toml: '[rpc]\ntimeout_broadcast_tx_commit = "-1s"',
    where: "[rpc] timeout_broadcast_tx_commit",
    expected: /may not be negative/,
  },
  {
    name: "boolean as a string",
    toml: '[p2p]\npex = "yes"',
    where: "[p2p] pex",
    expected: /expected true or false, got "yes"/,
  },
  {
    name: "negative count",
    toml: "[mempool]\nsize = -1",
    where: "[mempool] size",
    expected: /expected an integer ≥ 0, got -1/,
  },
  {
    name: "count as a string",
    toml: '[rpc]\nmax_open_connections = "900"',
    where: "[rpc] max_open_connections",
    expected: /expected an integer ≥ 0, got "900"/,
  },
  {
    name: "fractional count",
    toml: "[p2p]\nmax_num_inbound_peers = 1.5",
    where: "[p2p] max_num_inbound_peers",
    expected: /expected an integer ≥ 0, got 1.5/,
  },
  {
    name: "subscription buffer below 100",
    toml: "[rpc]\nexperimental_subscription_buffer_size = 50",
    where: "[rpc] experimental_subscription_buffer_size",
    expected: /expected an integer ≥ 100/,
  },
  {
    name: "rpc laddr without scheme",
    toml: '[rpc]\nladdr = "127.0.0.1:26657"',
    where: "[rpc] laddr",
    expected: /expected an address like "tcp:\/\/127.0.0.1:26657"/,
  },
  {
    name: "p2p laddr with a bad port",
    toml: '[p2p]\nladdr = "tcp://0.0.0.0:99999"',
    where: "[p2p] laddr",
    expected: /expected an address like "tcp:\/\/0.0.0.0:26656"/,
  },
  {
    name: "seed without node id",
    toml: '[p2p]\nseeds = "127.0.0.1:26656"',
    where: "[p2p] seeds",
    expected: /expected comma-separated peers.*has no 40-hex node id/,
  },
  {
    name: "persistent peer without port",
    toml: `[p2p]\npersistent_peers = "${ID}@host"`,
    where: "[p2p] persistent_peers",
    expected: /has no host:port after "@"/,
  },
  {
    name: "bad private peer id",
    toml: '[p2p]\nprivate_peer_ids = "xyz"',
    where: "[p2p] private_peer_ids",
    expected: /expected comma-separated 40-hex node ids/,
  },
  {
    name: "unknown rpc.compat",
    toml: '[rpc]\ncompat = "cosmjs"',
    where: "[rpc] compat",
    expected: /expected one of "seed", "tendermint", got "cosmjs"/,
  },
  {
    name: "unknown log format",
    toml: 'log_format = "xml"',
    where: "log_format",
    expected: /expected one of "plain", "json", got "xml"/,
  },
  {
    name: "bad module log level",
    toml: 'log_level = "consensus:loud"',
    where: "log_level",
    expected: /expected a level .* or module levels/,
  },
  {
    name: "unsupported db backend",
    toml: 'db_backend = "rocksdb"',
    where: "db_backend",
    expected: /expected one of "goleveldb", "cleveldb"/,
  },
  {
    name: "proxy_app neither address nor app",
    toml: 'proxy_app = "mystore"',
    where: "proxy_app",
    expected: /expected an ABCI address like "tcp:\/\/127.0.0.1:26658"/,
  },
  {
    name: "empty moniker",
    toml: 'moniker = ""',
    where: "moniker",
    expected: /expected a non-empty ASCII name/,
  },
  {
    name: "cors origins not a list",
    toml: '[rpc]\ncors_allowed_origins = "*"',
    where: "[rpc] cors_allowed_origins",
    expected: /expected an array of strings/,
  },
  {
    name: "mempool version unknown",
    toml: '[mempool]\nversion = "v2"',
    where: "[mempool] version",
    expected: /expected one of "v0", "v1"/,
  },
  {
    name: "fastsync version other than v0",
    toml: '[fastsync]\nversion = "v2"',
    where: "[fastsync] version",
    expected: /expected one of "v0" \(rxbft implements block sync v0/,
  },
  {
    name: "fastsync fall_behind_heights negative",
    toml: "[fastsync]\nfall_behind_heights = -1",
    where: "[fastsync] fall_behind_heights",
    expected: /expected/,
  },
  { name: "section given as a value", toml: 'rpc = "on"', where: "[rpc]", expected: /expected a table/ },
  {
    name: "write buffer below subscription buffer",
    toml: "[rpc]\nexperimental_websocket_write_buffer_size = 150",
    where: "[rpc] experimental_websocket_write_buffer_size",
    expected: /expected at least experimental_subscription_buffer_size \(200\), got 150/,
  },
  {
    name: "statesync enabled without servers",
    toml: '[statesync]\nenable = true\ntrust_height = 5\ntrust_hash = "AB"',
    where: "[statesync] rpc_servers",
    expected: /expected at least two servers/,
  },
  {
    name: "statesync chunk timeout too short",
    toml: '[statesync]\nenable = true\nrpc_servers = "a:1,b:2"\ntrust_height = 5\ntrust_hash = "AB"\nchunk_request_timeout = "1s"',
    where: "[statesync] chunk_request_timeout",
    expected: /expected at least "5s", got "1s"/,
  },
  {
    name: "TLS key without certificate",
    toml: '[rpc]\ntls_key_file = "key.pem"',
    where: "[rpc] tls_cert_file",
    expected: /set both or neither/,
  },
];

for (const { name, toml, where, expected } of cases) {
  test(`config.toml: ${name}`, () => {
    assertConfigRefused(toml, FILE, where, expected);
  });
}

test("config.toml: a TOML syntax error names the file, line and column", () => {
  assert.throws(
    () => configFromToml('moniker = "a"\n[consensus\n', FILE),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.code, "CONFIG_TOML_SYNTAX");
      assert.match(
        error.message,
        /^\/homes\/a\/config\/config.toml: expected valid TOML, got a syntax error at line 2, column \d+/,
      );
      return true;
    },
  );
});

test("flag: a bad flag value names the flag and the expectation", () => {
  const messageOf = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      return (error as Error).message;
    }
    return "no error";
  };
  assert.match(
    messageOf(() =>
      configFromToml(
        "",
        FILE,
        { "consensus.create_empty_blocks_interval": "5" },
        {
          flagNames: { "consensus.create_empty_blocks_interval": "consensus.create_empty_blocks_interval" },
        },
      ),
    ),
    /^flag --consensus.create_empty_blocks_interval: expected a Go duration like "3s", got "5" \(missing unit/,
  );
  assert.match(
    messageOf(() => configFromToml("", FILE, { "p2p.pex": "maybe" })),
    /^flag --p2p.pex: expected true or false, got "maybe"/,
  );
});
