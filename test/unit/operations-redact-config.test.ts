// config.toml as the debug bundle carries it: secret values and URL passwords replaced, the rest
// byte for byte.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { tailLines } from "../../src/operations/debug-dump.js";
import { redactConfigToml } from "../../src/operations/redact-config.js";
import { tempFolder } from "../fixtures/temp-folder.js";

test("secret keys and URL passwords are redacted; everything else is kept", () => {
  const text = [
    'proxy_app = "tcp://127.0.0.1:26658"',
    "[tx_index]",
    'indexer = "kv"',
    'psql-conn = "postgresql://user:pw@localhost/db"',
    'empty_token = ""',
    "  api_key = 'abc'",
    'persistent_peers = "id@1.2.3.4:26656"',
    'seeds = "http://alice:opensesame@seed.example:80"',
    'priv_validator_key_file = "config/priv_validator_key.json"',
    "",
  ].join("\n");
  assert.equal(
    redactConfigToml(text),
    [
      'proxy_app = "tcp://127.0.0.1:26658"',
      "[tx_index]",
      'indexer = "kv"',
      'psql-conn = "<redacted>"',
      'empty_token = ""',
      '  api_key = "<redacted>"',
      'persistent_peers = "id@1.2.3.4:26656"',
      'seeds = "http://alice:<redacted>@seed.example:80"',
      'priv_validator_key_file = "config/priv_validator_key.json"',
      "",
    ].join("\n"),
  );
});

test("tailLines returns the last whole lines of a file, across read chunks", () => {
  const file = join(tempFolder("rxbft-tail-"), "log");
  const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(40)}`);
  writeFileSync(file, `${lines.join("\n")}\n`);
  assert.equal(tailLines(file, 3).toString(), `${lines.slice(-3).join("\n")}\n`);
  assert.equal(tailLines(file, 4000).toString(), `${lines.slice(-4000).join("\n")}\n`);
  assert.equal(tailLines(file, 10_000).toString(), `${lines.join("\n")}\n`);
  writeFileSync(file, "no newline at the end");
  assert.equal(tailLines(file, 2).toString(), "no newline at the end\n");
});
