// Bad genesis.json inputs: each error must name the file, the JSON path and what was expected.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseGenesisFile } from "../../src/types/genesis.js";
import { GenesisError } from "../../src/types/genesis-errors.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const PUB = "AT/+aaL1eB0477Mud9JMm8Sh8BIvOYlPGC9KkIUmFaE=";
const ADDRESS = "A3258DCBF45DCA0DF052981870F2D1441A36D145";
const OTHER_PUB = Buffer.alloc(32, 7).toString("base64");

function base(): Record<string, unknown> {
  return {
    genesis_time: "2020-01-01T00:00:00Z",
    chain_id: "test-chain",
    initial_height: "1",
    validators: [
      { address: ADDRESS, pub_key: { type: "node/PubKeyEd25519", value: PUB }, power: "10", name: "" },
    ],
    app_hash: "",
  };
}

const validator = (patch: Record<string, unknown>) => ({
  validators: [{ ...(base().validators as object[])[0], ...patch }],
});
const params = (section: string, patch: Record<string, unknown>) => ({
  consensus_params: { [section]: patch },
});

const cases: { name: string; patch: Record<string, unknown>; path: string; expected: RegExp }[] = [
  {
    name: "chain_id missing",
    patch: { chain_id: undefined },
    path: "chain_id",
    expected: /expected a non-empty string of at most 49 characters, got nothing/,
  },
  {
    name: "chain_id empty",
    patch: { chain_id: "" },
    path: "chain_id",
    expected: /expected a non-empty string/,
  },
  {
    name: "chain_id of 50 characters",
    patch: { chain_id: "c".repeat(50) },
    path: "chain_id",
    expected: /at most 49 characters.*\(50 characters\)/,
  },
  {
    name: "chain_id a number",
    patch: { chain_id: 5 },
    path: "chain_id",
    expected: /expected a non-empty string/,
  },
  {
    name: "initial_height negative",
    patch: { initial_height: "-1" },
    path: "initial_height",
    expected: /expected a decimal integer string ≥ 0/,
  },
  {
    name: "initial_height as a JSON number",
    patch: { initial_height: 1 },
    path: "initial_height",
    expected: /expected a decimal integer string.*written as strings/,
  },
  {
    name: "genesis_time not RFC 3339",
    patch: { genesis_time: "yesterday" },
    path: "genesis_time",
    expected: /expected an RFC 3339 time/,
  },
  {
    name: "app_hash not hex",
    patch: { app_hash: "xyz" },
    path: "app_hash",
    expected: /expected a hex string, got "xyz"/,
  },
  {
    name: "validators not an array",
    patch: { validators: {} },
    path: "validators",
    expected: /expected an array of at most 10000 validators/,
  },
  {
    name: "validator power negative",
    patch: validator({ power: "-5" }),
    path: "validators[0].power",
    expected: /expected a decimal integer string ≥ 0/,
  },
  {
    name: "validator power above int64",
    patch: validator({ power: "9223372036854775808" }),
    path: "validators[0].power",
    expected: /expected a decimal integer string ≥ 0.*out of range/,
  },
  {
    name: "validator power as a number",
    patch: validator({ power: 10 }),
    path: "validators[0].power",
    expected: /expected a decimal integer string/,
  },
  {
    name: "validator key type unknown",
    patch: validator({ pub_key: { type: "node/PubKeySecp256k1", value: PUB } }),
    path: "validators[0].pub_key.type",
    expected: /expected "node\/PubKeyEd25519" or "tendermint\/PubKeyEd25519"/,
  },
  {
    name: "validator key of 31 bytes",
    patch: validator({ pub_key: { type: "node/PubKeyEd25519", value: Buffer.alloc(31).toString("base64") } }),
    path: "validators[0].pub_key.value",
    expected: /expected base64 of 32 bytes.*\(31 bytes\)/,
  },
  {
    name: "validator key missing",
    patch: validator({ pub_key: undefined }),
    path: "validators[0].pub_key",
    expected: /expected a public key object/,
  },
  {
    name: "validator address of another key",
    patch: validator({ pub_key: { type: "node/PubKeyEd25519", value: OTHER_PUB } }),
    path: "validators[0].address",
    expected: /expected [0-9A-F]{40} \(the first 20 bytes of sha256 of pub_key\), got "A3258DCB/,
  },
  {
    name: "validator address too short",
    patch: validator({ address: "A325" }),
    path: "validators[0].address",
    expected: /expected a hex string of 20 bytes/,
  },
  {
    name: "duplicate validator",
    patch: {
      validators: [
        { pub_key: { type: "node/PubKeyEd25519", value: PUB }, power: "1" },
        { pub_key: { type: "tendermint/PubKeyEd25519", value: PUB }, power: "2" },
      ],
    },
    path: "validators[1].pub_key",
    expected: /expected a key not already used by validators\[0\]/,
  },
  {
    name: "total power above the maximum",
    patch: {
      validators: [
        { pub_key: { type: "node/PubKeyEd25519", value: PUB }, power: "1152921504606846975" },
        { pub_key: { type: "node/PubKeyEd25519", value: OTHER_PUB }, power: "1" },
      ],
    },
    path: "validators[1].power",
    expected: /expected a total voting power of at most 1152921504606846975/,
  },
  {
    name: "block max_bytes above 100 MiB",
    patch: params("block", { max_bytes: "104857601" }),
    path: "consensus_params.block.max_bytes",
    expected: /expected a size in 1…104857600 bytes, got "104857601"/,
  },
  {
    name: "block max_gas below -1",
    patch: params("block", { max_gas: "-2" }),
    path: "consensus_params.block.max_gas",
    expected: /expected -1 \(no limit\) or a gas amount ≥ 0/,
  },
  {
    name: "time_iota_ms zero",
    patch: params("block", { time_iota_ms: "0" }),
    path: "consensus_params.block.time_iota_ms",
    expected: /expected a positive number of milliseconds/,
  },
  {
    name: "evidence max_age_num_blocks zero",
    patch: params("evidence", { max_age_num_blocks: "0" }),
    path: "consensus_params.evidence.max_age_num_blocks",
    expected: /expected a positive number of blocks/,
  },
  {
    name: "evidence max_bytes above block max_bytes",
    patch: params("evidence", { max_bytes: "30000000" }),
    path: "consensus_params.evidence.max_bytes",
    expected: /expected a size in 0…block.max_bytes \(22020096\)/,
  },
  {
    name: "evidence max_age_duration not a string",
    patch: params("evidence", { max_age_duration: "48h" }),
    path: "consensus_params.evidence.max_age_duration",
    expected: /expected a decimal integer string like "172800000000000"/,
  },
  {
    name: "unknown pub key type",
    patch: params("validator", { pub_key_types: ["rsa"] }),
    path: "consensus_params.validator.pub_key_types[0]",
    expected: /expected one of "ed25519", "secp256k1", got "rsa"/,
  },
  {
    name: "no pub key types",
    patch: params("validator", { pub_key_types: [] }),
    path: "consensus_params.validator.pub_key_types",
    expected: /expected at least one key type/,
  },
  {
    name: "block params not an object",
    patch: { consensus_params: { block: 5 } },
    path: "consensus_params.block",
    expected: /expected an object like/,
  },
];

const dir = tempFolder("rxbft-genesis-bad-");

for (const [index, { name, patch, path, expected }] of cases.entries()) {
  test(`genesis.json: ${name}`, () => {
    const file = join(dir, `genesis-${index}.json`);
    writeFileSync(file, JSON.stringify({ ...base(), ...patch }));
    assert.throws(
      () => parseGenesisFile(file),
      (error: unknown) => {
        assert.ok(error instanceof GenesisError, String(error));
        assert.equal(error.code, "GENESIS_INVALID");
        assert.equal(error.file, file);
        assert.equal(error.path, path);
        assert.ok(error.message.startsWith(`${file}: ${path}: expected `), error.message);
        assert.match(error.message, expected);
        return true;
      },
    );
  });
}

test("genesis.json: not JSON names the file and the expectation", () => {
  const file = join(dir, "broken.json");
  writeFileSync(file, '{"chain_id": ');
  assert.throws(
    () => parseGenesisFile(file),
    (error: unknown) => {
      assert.ok(error instanceof GenesisError);
      assert.equal(error.code, "GENESIS_NOT_JSON");
      assert.match(error.message, new RegExp(`^${file}: expected a JSON object, got text that is not JSON`));
      return true;
    },
  );
});

test("genesis.json: a JSON array is not a document", () => {
  const file = join(dir, "array.json");
  writeFileSync(file, "[]");
  assert.throws(() => parseGenesisFile(file), new RegExp(`${file}: expected a JSON object, got \\[\\]`));
});

test("genesis.json: a missing file names the file", () => {
  const file = join(dir, "missing.json");
  assert.throws(
    () => parseGenesisFile(file),
    (error: unknown) => {
      assert.ok(error instanceof GenesisError);
      assert.equal(error.code, "GENESIS_UNREADABLE");
      assert.match(error.message, new RegExp(`^${file}: cannot read genesis: file not found`));
      return true;
    },
  );
});
