// `rxbft reset-state` and `rxbft unsafe_reset_priv_validator` on a home that ran a chain: each
// touches exactly what it says (checksums of every other file unchanged), and both refuse a home
// locked by a running node.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { runCli } from "./cli-harness.js";
import { changedPaths, homeChecksums } from "./home-checksums.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

async function homeWithChain(): Promise<string> {
  const home = await initFastHome({ timeout_commit: "50ms" }, "rxbft-reset-");
  writeFileSync(join(home, "config/addrbook.json"), '{"key":"0123","addrs":[]}\n');
  const node = new NodeProcess(home);
  try {
    await node.waitFor(() => node.height >= 3n, "three blocks");
    node.kill("SIGINT");
    assert.equal((await node.exited).code, 0, node.output.slice(-2000));
  } finally {
    node.kill("SIGKILL");
  }
  return home;
}

test("reset-state removes the chain data and nothing else", { timeout: 60_000 }, async () => {
  const home = await homeWithChain();
  const before = homeChecksums(home);
  const signed = JSON.parse(readFileSync(join(home, "data/priv_validator_state.json"), "utf8"));
  assert.ok(Number(signed.height) >= 3);
  const out = await runCli(["reset-state", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /Removing the chain data of .*; keeping .*priv_validator_state\.json/);
  const after = homeChecksums(home);
  const changed = changedPaths(before, after);
  assert.ok(changed.length > 0);
  for (const path of changed) {
    assert.match(
      path,
      // The signer's spare state file (an older state kept for reuse, src/privval/state-file-spare.ts)
      // is in data/ too; it is not the signing state, and the next start removes it anyway.
      /^data\/(blockstore|state|tx_index|tx_index_bodies|evidence|kvstore)\.db\/|^data\/cs\.wal\/|^data\/\.priv_validator_state\.json\.spare-[ab]$/,
      `${path} changed`,
    );
    assert.equal(after.has(path), false, `${path} was removed, not rewritten`);
  }
  for (const kept of [
    "config/config.toml",
    "config/genesis.json",
    "config/node_key.json",
    "config/priv_validator_key.json",
    "config/addrbook.json",
    "data/priv_validator_state.json",
  ]) {
    assert.equal(after.get(kept), before.get(kept), `${kept} unchanged`);
  }
  for (const gone of [
    "blockstore.db",
    "state.db",
    "tx_index.db",
    "tx_index_bodies.db",
    "evidence.db",
    "kvstore.db",
    "cs.wal",
  ]) {
    assert.equal(existsSync(join(home, "data", gone)), false, gone);
  }
  // Running it again has nothing left to do.
  const again = await runCli(["reset_state", "--home", home]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /Nothing to remove/);
});

test("unsafe_reset_priv_validator resets only priv_validator_state.json, with a warning", {
  timeout: 60_000,
}, async () => {
  const home = await homeWithChain();
  const before = homeChecksums(home);
  const out = await runCli(["unsafe_reset_priv_validator", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(
    out.stdout,
    /WARNING: resetting the signing state removes this validator's double-sign protection/,
  );
  assert.match(out.stdout, /The signer had signed up to height \d+/);
  assert.deepEqual(changedPaths(before, homeChecksums(home)), ["data/priv_validator_state.json"]);
  assert.deepEqual(JSON.parse(readFileSync(join(home, "data/priv_validator_state.json"), "utf8")), {
    height: "0",
    round: 0,
    step: 0,
  });
  const kebab = await runCli(["unsafe-reset-priv-validator", "--home", home]);
  assert.equal(kebab.code, 0, kebab.stderr);
});

test("reset-state and unsafe_reset_priv_validator refuse a home a live node holds, touching nothing", async () => {
  const home = await initFastHome({}, "rxbft-reset-");
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
  try {
    writeFileSync(join(home, "data/rxbft.lock"), `${sleeper.pid}\n`);
    writeFileSync(join(home, "data/priv_validator_state.json"), '{"height":"7","round":0,"step":3}');
    const before = homeChecksums(home);
    for (const [command, action] of [
      ["reset-state", "reset the state"],
      ["unsafe_reset_priv_validator", "reset the validator's signing state"],
    ]) {
      const out = await runCli([command!, "--home", home]);
      assert.equal(out.code, 1, command);
      assert.match(
        out.stderr,
        new RegExp(`refusing to ${action}: a node \\(pid ${sleeper.pid}\\) is running in this home`),
      );
    }
    assert.deepEqual(changedPaths(before, homeChecksums(home)), []);
  } finally {
    sleeper.kill();
  }
});
