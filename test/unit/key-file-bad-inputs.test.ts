// Bad key files: each error names the file, the JSON path and what was expected, and never
// echoes private key material.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { KeyFileError } from "../../src/types/key-file-errors.js";
import { readNodeKey } from "../../src/types/key-file-node-key.js";
import { readPrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import { readPrivValidatorState } from "../../src/types/key-file-priv-validator-state.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const PRIV = "EVkqJO/jIXp3rkASXfh9YnyToYXRXhBr6g9cQVxPFnQBP/5povV4HTjvsy530kybxKHwEi85iU8YL0qQhSYVoQ==";
const PUB = "AT/+aaL1eB0477Mud9JMm8Sh8BIvOYlPGC9KkIUmFaE=";
const ADDRESS = "A3258DCBF45DCA0DF052981870F2D1441A36D145";
const privBytes = Buffer.from(PRIV, "base64");
/** The seed with a different public half: the halves disagree. */
const MISMATCHED = Buffer.concat([privBytes.subarray(0, 32), Buffer.alloc(32, 1)]).toString("base64");
const OTHER_PUB = Buffer.alloc(32, 2).toString("base64");

const key = (patch: Record<string, unknown>) => ({
  address: ADDRESS,
  pub_key: { type: "node/PubKeyEd25519", value: PUB },
  priv_key: { type: "node/PrivKeyEd25519", value: PRIV },
  ...patch,
});
const state = (patch: Record<string, unknown>) => ({ height: "0", round: 0, step: 0, ...patch });

type Reader = (file: string) => unknown;
const cases: { name: string; read: Reader; json: unknown; path: string; expected: RegExp }[] = [
  {
    name: "priv_validator_key: address missing",
    read: readPrivValidatorKey,
    json: key({ address: undefined }),
    path: "address",
    expected: /expected a hex string of 20 bytes \(40 digits\), got nothing/,
  },
  {
    name: "priv_validator_key: address not hex",
    read: readPrivValidatorKey,
    json: key({ address: "Z".repeat(40) }),
    path: "address",
    expected: /expected a hex string of 20 bytes/,
  },
  {
    name: "priv_validator_key: address of another key",
    read: readPrivValidatorKey,
    json: key({ address: "00".repeat(20) }),
    path: "address",
    expected: /expected A3258DCBF45DCA0DF052981870F2D1441A36D145 \(the first 20 bytes of sha256 of pub_key\)/,
  },
  {
    name: "priv_validator_key: pub_key type",
    read: readPrivValidatorKey,
    json: key({ pub_key: { type: "PubKeyEd25519", value: PUB } }),
    path: "pub_key.type",
    expected: /expected "node\/PubKeyEd25519" or "tendermint\/PubKeyEd25519"/,
  },
  {
    name: "priv_validator_key: pub_key of 33 bytes",
    read: readPrivValidatorKey,
    json: key({ pub_key: { type: "node/PubKeyEd25519", value: Buffer.alloc(33).toString("base64") } }),
    path: "pub_key.value",
    expected: /expected base64 of 32 bytes/,
  },
  {
    name: "priv_validator_key: pub_key of another key",
    read: readPrivValidatorKey,
    json: key({ pub_key: { type: "node/PubKeyEd25519", value: OTHER_PUB } }),
    path: "pub_key.value",
    expected: /expected the public key of priv_key/,
  },
  {
    name: "priv_validator_key: priv_key type",
    read: readPrivValidatorKey,
    json: key({ priv_key: { type: "node/PubKeyEd25519", value: PRIV } }),
    path: "priv_key.type",
    expected: /expected "node\/PrivKeyEd25519" or "tendermint\/PrivKeyEd25519"/,
  },
  {
    name: "priv_validator_key: priv_key of 32 bytes",
    read: readPrivValidatorKey,
    json: key({ priv_key: { type: "node/PrivKeyEd25519", value: PRIV.slice(0, 44) } }),
    path: "priv_key.value",
    expected: /expected base64 of 64 bytes, got "<redacted 44 characters>"/,
  },
  {
    name: "priv_validator_key: priv_key halves disagree",
    read: readPrivValidatorKey,
    json: key({ priv_key: { type: "node/PrivKeyEd25519", value: MISMATCHED } }),
    path: "priv_key.value",
    expected: /expected seed ‖ public key .*got halves that do not match/,
  },
  {
    name: "priv_validator_key: priv_key missing",
    read: readPrivValidatorKey,
    json: key({ priv_key: undefined }),
    path: "priv_key",
    expected: /expected a private key object/,
  },
  {
    name: "priv_validator_key: not an object",
    read: readPrivValidatorKey,
    json: "key",
    path: "",
    expected: /expected a JSON object with address, pub_key and priv_key/,
  },
  {
    name: "priv_validator_state: height as a number",
    read: readPrivValidatorState,
    json: state({ height: 0 }),
    path: "height",
    expected: /expected a decimal integer string ≥ 0 like "0"/,
  },
  {
    name: "priv_validator_state: negative height",
    read: readPrivValidatorState,
    json: state({ height: "-3" }),
    path: "height",
    expected: /expected a decimal integer string ≥ 0/,
  },
  {
    name: "priv_validator_state: round negative",
    read: readPrivValidatorState,
    json: state({ round: -1 }),
    path: "round",
    expected: /expected an integer number in 0…2147483647, got -1/,
  },
  {
    name: "priv_validator_state: step 4",
    read: readPrivValidatorState,
    json: state({ step: 4 }),
    path: "step",
    expected: /expected an integer number in 0…3, got 4/,
  },
  {
    name: "priv_validator_state: short signature",
    read: readPrivValidatorState,
    json: state({ signature: Buffer.alloc(10).toString("base64") }),
    path: "signature",
    expected: /expected base64 of a 64-byte signature.*\(10 bytes\)/,
  },
  {
    name: "priv_validator_state: signbytes not hex",
    read: readPrivValidatorState,
    json: state({ signbytes: "xyz" }),
    path: "signbytes",
    expected: /expected a hex string, got "xyz"/,
  },
  {
    name: "node_key: priv_key missing",
    read: readNodeKey,
    json: {},
    path: "priv_key",
    expected: /expected a private key object/,
  },
  {
    name: "node_key: priv_key type",
    read: readNodeKey,
    json: { priv_key: { type: "tendermint/PrivKeySecp256k1", value: PRIV } },
    path: "priv_key.type",
    expected: /expected "node\/PrivKeyEd25519" or "tendermint\/PrivKeyEd25519"/,
  },
  {
    name: "node_key: priv_key not base64",
    read: readNodeKey,
    json: { priv_key: { type: "node/PrivKeyEd25519", value: "!!" } },
    path: "priv_key.value",
    expected: /expected base64 of 64 bytes, got "<redacted 2 characters>"/,
  },
  {
    name: "node_key: priv_key halves disagree",
    read: readNodeKey,
    json: { priv_key: { type: "node/PrivKeyEd25519", value: MISMATCHED } },
    path: "priv_key.value",
    expected: /expected seed ‖ public key .*got halves that do not match/,
  },
];

const dir = tempFolder("rxbft-keys-bad-");

for (const [index, { name, read, json, path, expected }] of cases.entries()) {
  test(`key file: ${name}`, () => {
    const file = join(dir, `key-${index}.json`);
    writeFileSync(file, JSON.stringify(json));
    assert.throws(
      () => read(file),
      (error: unknown) => {
        assert.ok(error instanceof KeyFileError, String(error));
        assert.equal(error.code, "KEY_FILE_INVALID");
        assert.equal(error.file, file);
        assert.equal(error.path, path);
        const prefix = path === "" ? `${file}: expected ` : `${file}: ${path}: expected `;
        assert.ok(error.message.startsWith(prefix), error.message);
        assert.match(error.message, expected);
        assert.equal(error.message.includes(PRIV.slice(0, 20)), false, "never echoes the private key");
        return true;
      },
    );
  });
}

test("key file: text that is not JSON names the file", () => {
  const file = join(dir, "broken.json");
  writeFileSync(file, "{address:");
  assert.throws(
    () => readPrivValidatorKey(file),
    (error: unknown) => {
      assert.ok(error instanceof KeyFileError);
      assert.equal(error.code, "KEY_FILE_NOT_JSON");
      assert.ok(error.message.startsWith(`${file}: expected a JSON object, got text that is not JSON`));
      return true;
    },
  );
});

test("key file: a missing file names the file", () => {
  const file = join(dir, "nope.json");
  assert.throws(
    () => readNodeKey(file),
    (error: unknown) => {
      assert.ok(error instanceof KeyFileError);
      assert.equal(error.code, "KEY_FILE_IO");
      assert.equal(error.message, `${file}: cannot read: file not found`);
      return true;
    },
  );
});
