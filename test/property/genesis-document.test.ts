// Property: a genesis document written to its file form and read back is the same document, and
// its tendermint RPC form reads back as a genesis file too.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { addressOf } from "../../src/crypto/hash.js";
import {
  type GenesisDoc,
  genesisFileText,
  genesisFromJson,
  MAX_TOTAL_VOTING_POWER,
} from "../../src/types/genesis.js";
import { defaultConsensusParams } from "../../src/types/genesis-consensus-params.js";
import { genesisToRpcForm } from "../../src/types/genesis-rpc-form.js";

const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => new Uint8Array(bytes));
const doc = fc
  .record({
    seconds: fc.bigInt({ min: 0n, max: 253402300799n }),
    nanos: fc.integer({ min: 0, max: 999_999_999 }),
    chainId: fc.stringMatching(/^[a-zA-Z0-9_-]{1,49}$/),
    initialHeight: fc.bigInt({ min: 1n, max: 1n << 62n }),
    keys: fc.uniqueArray(key, { maxLength: 5, selector: (bytes) => Buffer.from(bytes).toString("hex") }),
    power: fc.bigInt({ min: 0n, max: MAX_TOTAL_VOTING_POWER / 5n }),
    name: fc.string({ maxLength: 20 }),
    appHash: fc.uint8Array({ maxLength: 32 }),
    maxBytes: fc.bigInt({ min: 1_048_576n, max: 104_857_600n }),
    maxGas: fc.bigInt({ min: -1n, max: 1n << 40n }),
    appVersion: fc.bigInt({ min: 0n, max: 1n << 40n }),
    appState: fc.option(
      fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
      { nil: undefined },
    ),
  })
  .map((v): GenesisDoc => {
    const params = defaultConsensusParams();
    params.block.maxBytes = v.maxBytes;
    params.block.maxGas = v.maxGas;
    params.version.appVersion = v.appVersion;
    const result: GenesisDoc = {
      genesisTime: { seconds: v.seconds, nanos: v.nanos },
      chainId: v.chainId,
      initialHeight: v.initialHeight,
      consensusParams: params,
      validators: v.keys.map((pubKey) => ({
        address: addressOf(pubKey),
        pubKey,
        power: v.power,
        name: v.name,
      })),
      appHash: new Uint8Array(v.appHash),
      appStateBytes: new Uint8Array(),
    };
    // Plain objects, as JSON.parse makes them (fast-check's have no prototype).
    if (v.appState !== undefined) result.appState = JSON.parse(JSON.stringify(v.appState));
    return result;
  });

const withoutRaw = (value: GenesisDoc) => ({ ...value, appStateBytes: undefined });

test("property: file form → domain is the identity", () => {
  fc.assert(
    fc.property(doc, (genesis) => {
      const back = genesisFromJson(genesisFileText(genesis), "genesis.json");
      assert.deepEqual(withoutRaw(back), withoutRaw(genesis));
      if (genesis.appState !== undefined)
        assert.deepEqual(JSON.parse(Buffer.from(back.appStateBytes).toString()), genesis.appState);
    }),
    { numRuns: 200 },
  );
});

test("property: the tendermint RPC form reads back as the same genesis", () => {
  fc.assert(
    fc.property(doc, (genesis) => {
      const back = genesisFromJson(JSON.stringify(genesisToRpcForm(genesis, "tendermint")), "rpc");
      assert.deepEqual(withoutRaw(back), withoutRaw(genesis));
    }),
    { numRuns: 200 },
  );
});
