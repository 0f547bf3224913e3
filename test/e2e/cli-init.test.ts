// `rxbft init` and the key commands, run as a user would: the built binary in temporary homes.
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { loadConfig } from "../../src/config/config-loader.js";
import { parseGenesisFile } from "../../src/types/genesis.js";
import { nodeIdOf, readNodeKey } from "../../src/types/key-file-node-key.js";
import { privValidatorKeyFromJson, readPrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import { readPrivValidatorState } from "../../src/types/key-file-priv-validator-state.js";
import { runCli, tempHome } from "./cli-harness.js";

const FILES = [
  "config/config.toml",
  "config/genesis.json",
  "config/priv_validator_key.json",
  "config/node_key.json",
  "data/priv_validator_state.json",
];

test("init writes every file, keys with mode 0600, directories 0700; the genesis loads", async () => {
  const home = tempHome();
  const out = await runCli(["init", "--home", home, "--chain-id", "e2e-chain"]);
  assert.equal(out.code, 0, out.stderr);
  for (const file of FILES) assert.match(out.stdout, new RegExp(`Generated .*file=${join(home, file)}`));
  for (const file of [
    "config/priv_validator_key.json",
    "config/node_key.json",
    "data/priv_validator_state.json",
  ]) {
    assert.equal(statSync(join(home, file)).mode & 0o777, 0o600, file);
  }
  for (const dir of ["", "config", "data"]) assert.equal(statSync(join(home, dir)).mode & 0o777, 0o700, dir);

  const genesis = parseGenesisFile(join(home, "config/genesis.json"));
  const key = readPrivValidatorKey(join(home, "config/priv_validator_key.json"));
  assert.equal(genesis.chainId, "e2e-chain");
  assert.equal(genesis.validators.length, 1);
  assert.deepEqual(genesis.validators[0]!.pubKey, key.publicKey);
  assert.equal(genesis.validators[0]!.power, 10n);
  assert.deepEqual(readPrivValidatorState(join(home, "data/priv_validator_state.json")), {
    height: 0n,
    round: 0,
    step: 0,
  });
  assert.equal(loadConfig(home).fileExisted, true);
});

test("init is idempotent: a second run keeps and reports every file", async () => {
  const home = tempHome();
  assert.equal((await runCli(["init", "--home", home])).code, 0);
  const before = FILES.map((file) => readFileSync(join(home, file), "utf8"));
  const out = await runCli(["init", "--home", home]);
  assert.equal(out.code, 0, out.stderr);
  for (const file of FILES) assert.match(out.stdout, new RegExp(`Found .*file=${join(home, file)}`));
  assert.deepEqual(
    FILES.map((file) => readFileSync(join(home, file), "utf8")),
    before,
  );
  assert.match(out.stdout, /Node home already initialised/);
});

test("init uses $RXBFT_HOME when --home is absent; a random test-chain id by default", async () => {
  const home = tempHome();
  const out = await runCli(["init"], { RXBFT_HOME: home });
  assert.equal(out.code, 0, out.stderr);
  assert.match(parseGenesisFile(join(home, "config/genesis.json")).chainId, /^test-chain-[A-Za-z0-9]{6}$/);
});

test("show_node_id and show-validator print what the key files hold", async () => {
  const home = tempHome();
  assert.equal((await runCli(["init", "--home", home])).code, 0);
  const id = await runCli(["show_node_id", "--home", home]);
  assert.equal(id.code, 0, id.stderr);
  assert.equal(id.stdout.trim(), nodeIdOf(readNodeKey(join(home, "config/node_key.json")).publicKey));
  assert.match(id.stdout.trim(), /^[0-9a-f]{40}$/);
  const validator = await runCli(["show-validator"], { RXBFT_HOME: home });
  assert.equal(validator.code, 0, validator.stderr);
  const key = readPrivValidatorKey(join(home, "config/priv_validator_key.json"));
  assert.deepEqual(JSON.parse(validator.stdout), {
    type: "node/PubKeyEd25519",
    value: Buffer.from(key.publicKey).toString("base64"),
  });
});

test("gen_validator prints a valid key file and writes nothing", async () => {
  const home = tempHome();
  for (const name of ["gen_validator", "gen-validator"]) {
    const out = await runCli([name, "--home", home]);
    assert.equal(out.code, 0, out.stderr);
    const key = privValidatorKeyFromJson(JSON.parse(out.stdout), "stdout");
    assert.equal(key.privateKey.length, 64);
  }
});

test("gen_node_key creates node_key.json once and refuses to overwrite it", async () => {
  const home = tempHome();
  const first = await runCli(["gen_node_key", "--home", home]);
  assert.equal(first.code, 0, first.stderr);
  const file = join(home, "config/node_key.json");
  assert.equal(first.stdout.trim(), nodeIdOf(readNodeKey(file).publicKey));
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const second = await runCli(["gen-node-key", "--home", home]);
  assert.equal(second.code, 1);
  assert.equal(second.stderr, `Error: ${file}: node key already exists; refusing to overwrite it\n`);
});

test("a broken key file is one clear error line naming file and path, and --trace adds the stack", async () => {
  const home = tempHome();
  assert.equal((await runCli(["init", "--home", home])).code, 0);
  const file = join(home, "config/priv_validator_key.json");
  const json = JSON.parse(readFileSync(file, "utf8"));
  json.pub_key.value = "AAAA";
  writeFileSync(file, JSON.stringify(json));
  const out = await runCli(["show_validator", "--home", home]);
  assert.equal(out.code, 1);
  assert.equal(
    out.stderr,
    `Error: ${file}: pub_key.value: expected base64 of 32 bytes, got "AAAA" (3 bytes)\n`,
  );
  const traced = await runCli(["show_validator", "--home", home, "--trace"]);
  assert.equal(traced.code, 1);
  assert.match(traced.stderr, /^Error: .*\nKeyFileError: .*\n\s+at /);
});
