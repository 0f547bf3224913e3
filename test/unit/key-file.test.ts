import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import {
  generateNodeKey,
  nodeIdOf,
  nodeKeyFileText,
  readNodeKey,
  writeNodeKey,
} from "../../src/types/key-file-node-key.js";
import {
  generatePrivValidatorKey,
  privValidatorKeyFileText,
  readPrivValidatorKey,
  writePrivValidatorKey,
} from "../../src/types/key-file-priv-validator.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  privValidatorStateFileText,
  readPrivValidatorState,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { tempFolder } from "../fixtures/temp-folder.js";

// Reference §10.7: a Tendermint key file's values.
const PRIV = "EVkqJO/jIXp3rkASXfh9YnyToYXRXhBr6g9cQVxPFnQBP/5povV4HTjvsy530kybxKHwEi85iU8YL0qQhSYVoQ==";
const PUB = "AT/+aaL1eB0477Mud9JMm8Sh8BIvOYlPGC9KkIUmFaE=";
const ADDRESS = "A3258DCBF45DCA0DF052981870F2D1441A36D145";

const dir = tempFolder("rxbft-keys-");

test("a Tendermint priv_validator_key.json (tendermint/ prefix) is read", () => {
  const file = join(dir, "tm_priv_validator_key.json");
  writeFileSync(
    file,
    JSON.stringify({
      address: ADDRESS,
      pub_key: { type: "tendermint/PubKeyEd25519", value: PUB },
      priv_key: { type: "tendermint/PrivKeyEd25519", value: PRIV },
    }),
  );
  const key = readPrivValidatorKey(file);
  assert.equal(Buffer.from(key.address).toString("hex").toUpperCase(), ADDRESS);
  assert.equal(Buffer.from(key.publicKey).toString("base64"), PUB);
  assert.equal(Buffer.from(key.privateKey).toString("base64"), PRIV);
});

test("priv_validator_key.json is written with node/ types, 2-space indent and mode 0600", () => {
  const file = join(dir, "priv_validator_key.json");
  const key = generatePrivValidatorKey();
  writePrivValidatorKey(file, key);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const text = readFileSync(file, "utf8");
  assert.equal(text, privValidatorKeyFileText(key));
  assert.match(
    text,
    /^\{\n {2}"address": "[0-9A-F]{40}",\n {2}"pub_key": \{\n {4}"type": "node\/PubKeyEd25519"/,
  );
  assert.match(text, /"type": "node\/PrivKeyEd25519"/);
  assert.deepEqual(readPrivValidatorKey(file), key);
});

test("the specification's last_* fields in the key file are accepted", () => {
  const file = join(dir, "legacy_key.json");
  writeFileSync(
    file,
    JSON.stringify({
      address: ADDRESS,
      pub_key: { type: "node/PubKeyEd25519", value: PUB },
      priv_key: { type: "node/PrivKeyEd25519", value: PRIV },
      last_height: "0",
      last_round: 0,
      last_step: 0,
    }),
  );
  assert.equal(Buffer.from(readPrivValidatorKey(file).publicKey).toString("base64"), PUB);
});

test("priv_validator_state.json: initial content, signature fields, mode 0600", () => {
  const file = join(dir, "priv_validator_state.json");
  writePrivValidatorState(file, INITIAL_PRIV_VALIDATOR_STATE);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { height: "0", round: 0, step: 0 });
  const signed = {
    height: 12n,
    round: 1,
    step: 3 as const,
    signature: new Uint8Array(64).fill(9),
    signBytes: new Uint8Array([1, 2, 0xab]),
  };
  writePrivValidatorState(file, signed);
  assert.match(readFileSync(file, "utf8"), /"signbytes": "0102AB"/);
  assert.deepEqual(readPrivValidatorState(file), signed);
  assert.equal(privValidatorStateFileText(signed), readFileSync(file, "utf8"));
});

test("node_key.json is one line, mode 0600, and the node id is the hex of sha256(pub)[:20]", () => {
  const file = join(dir, "node_key.json");
  writeFileSync(file, JSON.stringify({ priv_key: { type: "tendermint/PrivKeyEd25519", value: PRIV } }));
  assert.equal(nodeIdOf(readNodeKey(file).publicKey), "a3258dcbf45dca0df052981870f2d1441a36d145");
  const key = generateNodeKey();
  writeNodeKey(file, key);
  const text = readFileSync(file, "utf8");
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.equal(text.includes("\n"), false);
  assert.equal(text, nodeKeyFileText(key));
  assert.match(text, /^\{"priv_key":\{"type":"node\/PrivKeyEd25519","value":"[A-Za-z0-9+/]{86}=="\}\}$/);
  assert.deepEqual(readNodeKey(file), key);
});
