import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  genesisFileText,
  genesisFromJson,
  parseGenesisFile,
  writeGenesisFile,
} from "../../src/types/genesis.js";
import { defaultConsensusParams } from "../../src/types/genesis-consensus-params.js";
import { genesisToRpcForm } from "../../src/types/genesis-rpc-form.js";
import { formatRfc3339Nano, parseRfc3339 } from "../../src/types/genesis-time.js";

// The test key of reference §10.7.
const PUB = "AT/+aaL1eB0477Mud9JMm8Sh8BIvOYlPGC9KkIUmFaE=";
const ADDRESS = "A3258DCBF45DCA0DF052981870F2D1441A36D145";

const minimal = {
  genesis_time: "2019-01-01T00:00:50.52Z",
  chain_id: "test-chain",
  validators: [
    { address: ADDRESS, pub_key: { type: "tendermint/PubKeyEd25519", value: PUB }, power: "10", name: "v0" },
  ],
  app_hash: "",
};

test("a minimal genesis gets Tendermint's normalisation", () => {
  const doc = genesisFromJson(JSON.stringify(minimal), "genesis.json");
  assert.equal(doc.chainId, "test-chain");
  assert.equal(doc.initialHeight, 1n);
  assert.deepEqual(doc.consensusParams, defaultConsensusParams());
  assert.equal(doc.validators.length, 1);
  assert.equal(Buffer.from(doc.validators[0]!.address).toString("hex").toUpperCase(), ADDRESS);
  assert.equal(doc.validators[0]!.power, 10n);
  assert.equal(doc.appState, undefined);
  assert.equal(formatRfc3339Nano(doc.genesisTime), "2019-01-01T00:00:50.52Z");
});

test('initial_height "0" means 1; a zero or missing time becomes now', () => {
  const now = { seconds: 1_700_000_000n, nanos: 5 };
  const doc = genesisFromJson(
    JSON.stringify({ chain_id: "c", initial_height: "0", genesis_time: "0001-01-01T00:00:00Z" }),
    "g",
    { now: () => now },
  );
  assert.equal(doc.initialHeight, 1n);
  assert.deepEqual(doc.genesisTime, now);
  const later = genesisFromJson(JSON.stringify({ chain_id: "c", initial_height: "1000" }), "g", {
    now: () => now,
  });
  assert.equal(later.initialHeight, 1000n);
  assert.deepEqual(later.genesisTime, now);
});

test("a missing address is filled in; validators may be empty or null; power 0 is in range", () => {
  const noAddress = {
    ...minimal,
    validators: [{ pub_key: { type: "node/PubKeyEd25519", value: PUB }, power: "0" }],
  };
  const doc = genesisFromJson(JSON.stringify(noAddress), "g");
  assert.equal(Buffer.from(doc.validators[0]!.address).toString("hex").toUpperCase(), ADDRESS);
  assert.equal(doc.validators[0]!.power, 0n);
  assert.equal(doc.validators[0]!.name, "");
  assert.deepEqual(genesisFromJson(JSON.stringify({ chain_id: "c", validators: [] }), "g").validators, []);
  assert.deepEqual(genesisFromJson(JSON.stringify({ chain_id: "c", validators: null }), "g").validators, []);
});

test("partial consensus params are completed with the defaults", () => {
  const doc = genesisFromJson(
    JSON.stringify({
      chain_id: "c",
      consensus_params: { block: { max_bytes: "2000000" }, version: { app_version: "3" } },
    }),
    "g",
  );
  assert.equal(doc.consensusParams.block.maxBytes, 2000000n);
  assert.equal(doc.consensusParams.block.maxGas, -1n);
  assert.equal(doc.consensusParams.evidence.maxBytes, 1048576n);
  assert.equal(doc.consensusParams.version.appVersion, 3n);
});

test("app_state keeps the file's own bytes, big numbers included", () => {
  const text =
    '{"chain_id":"c","app_state": {"n": 123456789012345678901234567890, "s":"a,b}"} ,"app_hash":"ABCD"}';
  const doc = genesisFromJson(text, "g");
  assert.equal(
    Buffer.from(doc.appStateBytes).toString(),
    '{"n": 123456789012345678901234567890, "s":"a,b}"}',
  );
  assert.deepEqual(Buffer.from(doc.appHash), Buffer.from([0xab, 0xcd]));
});

test("RFC 3339 times: offsets convert to UTC, nanoseconds are kept", () => {
  assert.deepEqual(parseRfc3339("1970-01-01T01:00:00+01:00"), { seconds: 0n, nanos: 0 });
  assert.deepEqual(parseRfc3339("2021-02-03T04:05:06.000000007Z"), { seconds: 1612325106n, nanos: 7 });
  assert.equal(parseRfc3339("2021-02-30T00:00:00Z"), undefined);
  assert.equal(formatRfc3339Nano({ seconds: -62135596800n, nanos: 0 }), "0001-01-01T00:00:00Z");
  assert.equal(formatRfc3339Nano({ seconds: 1612325106n, nanos: 120_000_000 }), "2021-02-03T04:05:06.12Z");
});

test("file form → domain → file form → domain is stable, and the file can be written and read", () => {
  const doc = genesisFromJson(JSON.stringify({ ...minimal, app_state: { accounts: [1, 2] } }), "g");
  const again = genesisFromJson(genesisFileText(doc), "g");
  assert.deepEqual(again, { ...doc, appStateBytes: again.appStateBytes });
  const file = join(mkdtempSync(join(tmpdir(), "rxbft-genesis-")), "genesis.json");
  writeGenesisFile(file, doc);
  assert.deepEqual(parseGenesisFile(file).validators, doc.validators);
});

test("the tendermint RPC form is v0.34's genesis JSON", () => {
  const doc = genesisFromJson(JSON.stringify(minimal), "g");
  const rpc = genesisToRpcForm(doc, "tendermint");
  assert.deepEqual(rpc, {
    genesis_time: "2019-01-01T00:00:50.52Z",
    chain_id: "test-chain",
    initial_height: "1",
    consensus_params: {
      block: { max_bytes: "22020096", max_gas: "-1", time_iota_ms: "1000" },
      evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
      validator: { pub_key_types: ["ed25519"] },
      version: {},
    },
    validators: [
      {
        address: ADDRESS,
        pub_key: { type: "tendermint/PubKeyEd25519", value: PUB },
        power: "10",
        name: "v0",
      },
    ],
    app_hash: "",
  });
  assert.deepEqual(Object.keys(rpc), [
    "genesis_time",
    "chain_id",
    "initial_height",
    "consensus_params",
    "validators",
    "app_hash",
  ]);
  const empty = genesisToRpcForm(
    genesisFromJson('{"chain_id":"c","genesis_time":"2020-01-01T00:00:00Z"}', "g"),
    "tendermint",
  );
  assert.equal("validators" in empty, false, "v0.34 omits an empty validator list");
  assert.equal("app_state" in empty, false, "v0.34 omits an absent app_state");
});

test("the seed RPC form has the specification's params and always validators and app_state", () => {
  const doc = genesisFromJson(JSON.stringify({ ...minimal, validators: [] }), "g");
  const rpc = genesisToRpcForm(doc, "seed") as Record<string, Record<string, Record<string, unknown>>>;
  assert.deepEqual(rpc.consensus_params, {
    block: { max_bytes: "22020096", max_gas: "-1", time_iota_ms: "1000" },
    evidence: {
      max_age: "100000",
      max_age_num_blocks: "100000",
      max_age_duration: "172800000000000",
      max_bytes: "1048576",
    },
    validator: { pub_key_types: ["ed25519"] },
    version: {},
  });
  assert.deepEqual(rpc.validators, []);
  assert.deepEqual(rpc.app_state, {});
  const withKey = genesisToRpcForm(genesisFromJson(JSON.stringify(minimal), "g"), "seed") as {
    validators: { pub_key: { type: string } }[];
  };
  assert.equal(withKey.validators[0]!.pub_key.type, "node/PubKeyEd25519");
});

test("RPC form → file → domain round trip keeps every value", () => {
  const doc = genesisFromJson(
    JSON.stringify({ ...minimal, initial_height: "7", app_state: { a: "b" }, app_hash: "0A0B" }),
    "g",
  );
  const rpc = genesisToRpcForm(doc, "tendermint");
  const back = genesisFromJson(JSON.stringify(rpc), "rpc");
  assert.deepEqual({ ...back, appStateBytes: undefined }, { ...doc, appStateBytes: undefined });
});
