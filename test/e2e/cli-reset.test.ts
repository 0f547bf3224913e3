// `rxbft unsafe_reset_all`: wipes data/, resets the signing state, clears the address book, and
// refuses while a node holds the home.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, tempHome } from "./cli-harness.js";

async function usedHome(): Promise<string> {
  const home = tempHome();
  assert.equal((await runCli(["init", "--home", home])).code, 0);
  mkdirSync(join(home, "data/blockstore.db"));
  writeFileSync(join(home, "data/blockstore.db/000001.log"), "blocks");
  writeFileSync(join(home, "config/addrbook.json"), "{}");
  writeFileSync(
    join(home, "data/priv_validator_state.json"),
    JSON.stringify({ height: "42", round: 1, step: 3 }),
  );
  return home;
}

test("unsafe_reset_all deletes data, resets the state to height 0 and removes the address book", async () => {
  const home = await usedHome();
  const key = readFileSync(join(home, "config/priv_validator_key.json"), "utf8");
  const out = await runCli(["unsafe_reset_all", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal(existsSync(join(home, "data/blockstore.db")), false);
  assert.equal(existsSync(join(home, "config/addrbook.json")), false);
  assert.deepEqual(JSON.parse(readFileSync(join(home, "data/priv_validator_state.json"), "utf8")), {
    height: "0",
    round: 0,
    step: 0,
  });
  assert.equal(readFileSync(join(home, "config/priv_validator_key.json"), "utf8"), key, "the key is kept");
});

test("unsafe-reset-all --keep-addr-book keeps the address book", async () => {
  const home = await usedHome();
  const out = await runCli(["unsafe-reset-all", "--keep-addr-book"], { RXBFT_HOME: home });
  assert.equal(out.code, 0, out.stderr);
  assert.equal(existsSync(join(home, "config/addrbook.json")), true);
  assert.equal(existsSync(join(home, "data/blockstore.db")), false);
});

test("unsafe_reset_all refuses while a live node holds the home, and touches nothing", async () => {
  const home = await usedHome();
  const sleeper = spawn(process.execPath, ["-e", "setTimeout(() => {}, 20000)"], { stdio: "ignore" });
  try {
    const lock = join(home, "data/rxbft.lock");
    writeFileSync(lock, `${sleeper.pid}\n`);
    const out = await runCli(["unsafe_reset_all", "--home", home]);
    assert.equal(out.code, 1);
    assert.equal(
      out.stderr,
      `Error: ${lock}: refusing to reset the home: a node (pid ${sleeper.pid}) is running in this home; stop it first\n`,
    );
    assert.equal(existsSync(join(home, "data/blockstore.db/000001.log")), true);
    assert.equal(JSON.parse(readFileSync(join(home, "data/priv_validator_state.json"), "utf8")).height, "42");
  } finally {
    sleeper.kill();
  }
});
