import assert from "node:assert/strict";
import { test } from "node:test";
import { runCli } from "./cli-harness.js";

test("rxbft version prints the package version", async () => {
  const out = await runCli(["version"]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout.trim(), /^\d+\.\d+\.\d+$/);
});

test("rxbft version --json names the protocol versions", async () => {
  const out = await runCli(["version", "--json"]);
  assert.equal(out.code, 0, out.stderr);
  const versions = JSON.parse(out.stdout);
  assert.equal(versions.block_protocol, 11);
  assert.equal(versions.p2p_protocol, 8);
  assert.equal(versions.abci, "0.17.0");
});
