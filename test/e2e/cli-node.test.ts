// `rxbft node`: it validates flags, config, genesis and keys and takes the home lock before it
// runs; every bad input is one clear line naming what is wrong.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { RXBFT_BIN, runCli, tempHome } from "./cli-harness.js";

async function initialised(): Promise<string> {
  const home = tempHome();
  const out = await runCli(["init", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  return home;
}

test("node applies its flags over config.toml, serves on the flagged address and stops on SIGINT", async () => {
  const home = await initialised();
  const port = 36000 + Math.floor(Math.random() * 2000);
  const child = spawn(
    process.execPath,
    [
      RXBFT_BIN,
      "node",
      "--home",
      home,
      "--proxy_app",
      "kvstore",
      "--moniker",
      "flag-moniker",
      "--consensus.create_empty_blocks=false",
      "--p2p.pex=false",
      "--p2p.laddr",
      "tcp://127.0.0.1:0",
      "--rpc.laddr",
      `tcp://127.0.0.1:${port}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  try {
    let status: { node_info: { moniker: string; other: { rpc_address: string } } } | undefined;
    for (let attempt = 0; attempt < 150 && !status; attempt++) {
      await new Promise((r) => setTimeout(r, 100));
      status = await fetch(`http://127.0.0.1:${port}/status`)
        .then((r) => r.json() as Promise<{ result: typeof status }>)
        .then((body) => body.result)
        .catch(() => undefined);
    }
    assert.ok(status, `the RPC answered on the flagged address; stdout so far:\n${stdout}`);
    assert.equal(status.node_info.moniker, "flag-moniker", "--moniker overrides config.toml");
    assert.equal(status.node_info.other.rpc_address, `tcp://127.0.0.1:${port}`);
    assert.ok(existsSync(join(home, "data/rxbft.lock")), "a running node holds the home lock");
  } finally {
    child.kill("SIGINT");
  }
  assert.equal(await exited, 0, "Ctrl-C stops the node cleanly");
  assert.equal(existsSync(join(home, "data/rxbft.lock")), false, "the lock is released on exit");
});

test("a bad flag value names the flag and the expectation", async () => {
  const home = await initialised();
  const out = await runCli(["node", "--home", home, "--consensus.create_empty_blocks_interval", "5"]);
  assert.equal(out.code, 1);
  assert.equal(
    out.stderr,
    'Error: flag --consensus.create_empty_blocks_interval: expected a Go duration like "3s", got "5" (missing unit in duration "5")\n',
  );
});

test("a bad config.toml names the file, the key and the expectation", async () => {
  const home = await initialised();
  const file = join(home, "config/config.toml");
  writeFileSync(file, readFileSync(file, "utf8").replace('timeout_propose = "3s"', "timeout_propose = 42"));
  const out = await runCli(["node", "--home", home]);
  assert.equal(out.code, 1);
  assert.equal(
    out.stderr,
    `Error: ${file}: [consensus] timeout_propose: expected a Go duration like "3s", got 42\n`,
  );
});

test("node in an empty home writes config.toml and asks for init", async () => {
  const home = tempHome();
  const out = await runCli(["node"], { RXBFT_HOME: home });
  assert.equal(out.code, 1);
  assert.equal(
    out.stderr,
    `Error: ${join(home, "config/genesis.json")}: no genesis file; run \`rxbft init\` (or copy the network's genesis.json there)\n`,
  );
  assert.equal(existsSync(join(home, "config/config.toml")), true);
});

test("--genesis_hash must match the genesis file", async () => {
  const home = await initialised();
  const out = await runCli(["node", "--home", home, "--genesis_hash", "00".repeat(32)]);
  assert.equal(out.code, 1);
  assert.match(
    out.stderr,
    /^Error: .*genesis\.json: expected sha256 0{64} \(--genesis_hash\), got [0-9A-F]{64}\n$/,
  );
});

test("an unknown flag is one line, not a stack trace", async () => {
  const out = await runCli(["node", "--no-such-flag"]);
  assert.equal(out.code, 1);
  assert.match(out.stderr, /^Error: Nonexistent flag: --no-such-flag/);
  assert.doesNotMatch(out.stderr, /\n\s+at /);
});

test("a second node refuses a home whose lock a live process holds", async () => {
  const home = await initialised();
  // A live process that is not us: its pid goes in the lock.
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
  try {
    writeFileSync(join(home, "data/rxbft.lock"), `${sleeper.pid}\n`);
    const out = await runCli(["node", "--home", home]);
    assert.equal(out.code, 1);
    assert.equal(
      out.stderr,
      `Error: ${join(home, "data/rxbft.lock")}: the home is in use by a running node (pid ${sleeper.pid}); stop it first or use another --home\n`,
    );
  } finally {
    sleeper.kill();
  }
});
