// The shared JSON shapes and scalars of both forms, one by one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deliverTxPlainJson, eventJsonPlain, validatorUpdateJson } from "../../src/rpc/json/json-abci.js";
import { blockIdJson, commitSigJson, headerJson } from "../../src/rpc/json/json-block.js";
import { protoPubKeyJson as protoKey, pubKeyJson } from "../../src/rpc/json/json-keys.js";
import { base64OrNull, hexUpper, int64, rfc3339 } from "../../src/rpc/json/json-primitives.js";
import { voteBitArrayString, voteString } from "../../src/rpc/json/json-round-state.js";
import { jsonString, jsonText } from "../../src/rpc/json/json-text.js";
import { validatorJson } from "../../src/rpc/json/json-validator.js";

const key = new Uint8Array(32).fill(2);
const keyB64 = Buffer.from(key).toString("base64");

test("scalars: int64 as text, hex upper, base64 or null, RFC 3339 trimmed and Go's zero time", () => {
  assert.equal(int64(-(2n ** 63n)), "-9223372036854775808");
  assert.equal(hexUpper(new Uint8Array([0xab, 0x01])), "AB01");
  assert.equal(hexUpper("abcd"), "ABCD");
  assert.equal(hexUpper(new Uint8Array(0)), "");
  assert.equal(base64OrNull(new Uint8Array(0)), null);
  assert.equal(rfc3339({ seconds: 1577836800n, nanos: 520_000_000 }), "2020-01-01T00:00:00.52Z");
  assert.equal(rfc3339({ seconds: 1577836800n, nanos: 1 }), "2020-01-01T00:00:00.000000001Z");
  assert.equal(rfc3339(undefined), "0001-01-01T00:00:00Z");
});

test("strings: Go escapes <, >, &, U+2028 and U+2029; undefined keys are left out", () => {
  assert.equal(jsonString("a<b>&\u2028\u2029"), '"a\\u003cb\\u003e\\u0026\\u2028\\u2029"');
  assert.equal(jsonText({ a: undefined, b: 1, c: [undefined, null] }), '{"b":1,"c":[null,null]}');
  assert.throws(() => jsonText({ n: Number.NaN }), /cannot hold/);
});

test("pub_key by form; the protobuf oneof form of ABCI validator updates", () => {
  assert.deepEqual(pubKeyJson(key, "seed"), { type: "node/PubKeyEd25519", value: keyB64 });
  assert.deepEqual(pubKeyJson({ sum: { $case: "ed25519", ed25519: key } }, "tendermint"), {
    type: "tendermint/PubKeyEd25519",
    value: keyB64,
  });
  assert.deepEqual(
    pubKeyJson({ sum: { $case: "secp256k1", secp256k1: new Uint8Array([3]) } }, "tendermint"),
    {
      type: "tendermint/PubKeySecp256k1",
      value: "Aw==",
    },
  );
  assert.equal(pubKeyJson(undefined, "seed"), null);
  assert.deepEqual(protoKey(key), {
    Sum: { type: "tendermint.crypto.PublicKey_Ed25519", value: { ed25519: keyB64 } },
  });
  // power 0 (a removal) is omitempty in v0.34
  assert.equal(
    jsonText(
      validatorUpdateJson({ pubKey: { sum: { $case: "ed25519", ed25519: key } }, power: 0n }, "tendermint"),
    ),
    `{"pub_key":{"Sum":{"type":"tendermint.crypto.PublicKey_Ed25519","value":{"ed25519":"${keyB64}"}}}}`,
  );
});

test("block_id, commit sig, validator", () => {
  assert.equal(jsonText(blockIdJson(undefined)), '{"hash":"","parts":{"total":0,"hash":""}}');
  assert.equal(
    jsonText(
      commitSigJson({
        blockIdFlag: 3,
        validatorAddress: new Uint8Array([1]),
        timestamp: { seconds: 0n, nanos: 0 },
        signature: new Uint8Array([1]),
      }),
    ),
    '{"block_id_flag":3,"validator_address":"01","timestamp":"1970-01-01T00:00:00Z","signature":"AQ=="}',
  );
  assert.equal(
    jsonText(
      validatorJson(
        { address: new Uint8Array([1]), pubKey: key, votingPower: 5n, proposerPriority: -3n },
        "seed",
      ),
    ),
    `{"address":"01","pub_key":{"type":"node/PubKeyEd25519","value":"${keyB64}"},"voting_power":"5","proposer_priority":"-3"}`,
  );
});

test("header version: omitempty in v0.34, both fields in the seed form", () => {
  const header = {
    version: { block: 11n, app: 2n },
    chainId: "c",
    height: 1n,
    time: { seconds: 0n, nanos: 0 },
    lastBlockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
    lastCommitHash: new Uint8Array(0),
    dataHash: new Uint8Array(0),
    validatorsHash: new Uint8Array(0),
    nextValidatorsHash: new Uint8Array(0),
    consensusHash: new Uint8Array(0),
    appHash: new Uint8Array(0),
    lastResultsHash: new Uint8Array(0),
    evidenceHash: new Uint8Array(0),
    proposerAddress: new Uint8Array(0),
  };
  assert.ok(jsonText(headerJson(header, "tendermint")).startsWith('{"version":{"block":"11","app":"2"},'));
  assert.ok(
    jsonText(headerJson({ ...header, version: { block: 11n, app: 0n } }, "tendermint")).startsWith(
      '{"version":{"block":"11"},',
    ),
  );
  assert.ok(
    jsonText(headerJson({ ...header, version: { block: 11n, app: 0n } }, "seed")).startsWith(
      '{"version":{"block":"11","app":"0"},',
    ),
  );
});

test("plain-codec events and DeliverTx drop empty fields", () => {
  assert.equal(jsonText(eventJsonPlain({ type: "", attributes: [] })), "{}");
  assert.equal(jsonText(deliverTxPlainJson({ code: 0, gasWanted: 0n })), "{}");
  assert.equal(jsonText(deliverTxPlainJson({ code: 3, codespace: "sdk" })), '{"code":3,"codespace":"sdk"}');
});

test("Go's Vote.String() and vote bit arrays", () => {
  const vote = {
    type: 1,
    height: 12n,
    round: 2,
    blockId: {
      hash: new Uint8Array([0xab, 0xcd, 0xef, 1, 2, 3, 4]),
      partSetHeader: { total: 1, hash: new Uint8Array(0) },
    },
    timestamp: { seconds: 1577836800n, nanos: 5_000 },
    validatorAddress: new Uint8Array([0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x11]),
    validatorIndex: 3,
    signature: new Uint8Array([1]),
  };
  assert.equal(
    voteString(vote),
    "Vote{3:AABBCCDDEEFF 12/02/SIGNED_MSG_TYPE_PREVOTE(Prevote) ABCDEF010203 010000000000 @ 2020-01-01T00:00:00.000005000Z}",
  );
  assert.equal(voteString(undefined), "nil-Vote");
  assert.equal(voteBitArrayString([vote, undefined, vote], [10n, 10n, 20n], 40n), "BA{3:x_x} 30/40 = 0.75");
});
