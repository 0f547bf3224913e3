import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { initChainValidators } from "../../src/abci/init-chain-validators.js";
import { StateError } from "../../src/state/errors.js";
import { applyInitChain, genesisValidatorUpdates, stateFromGenesis } from "../../src/state/genesis-state.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import { testGenesis, testKey } from "../fixtures/abci-test-app/test-chain.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const EMPTY_TREE = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

describe("genesis state", () => {
  it("builds validators, next validators incremented once, heights and app hash from genesis", () => {
    const g = testGenesis(3, { initialHeight: 5n, appHash: Uint8Array.of(1, 2) });
    const s = stateFromGenesis(g);
    assert.equal(s.lastBlockHeight, 0n);
    assert.equal(s.initialHeight, 5n);
    assert.equal(s.lastHeightValidatorsChanged, 5n);
    assert.equal(s.lastHeightConsensusParamsChanged, 5n);
    assert.equal(hex(s.appHash), "0102");
    assert.equal(s.lastResultsHash.length, 0);
    assert.equal(s.validators!.validators.length, 3);
    assert.deepEqual(s.lastValidators!.validators, []);
    const expectedNext = ValidatorSet.fromProto(s.validators!).incrementProposerPriority(1).toProto();
    assert.deepEqual(s.nextValidators, expectedNext);
    assert.equal(genesisValidatorUpdates(g)[0]!.power, 10n);
  });

  it("InitChain with no answer keeps genesis and sets the empty results hash", () => {
    const s = applyInitChain(stateFromGenesis(testGenesis(1)), {
      consensusParams: undefined,
      validators: [],
      appHash: new Uint8Array(),
    });
    assert.equal(hex(s.lastResultsHash), EMPTY_TREE);
    assert.equal(s.validators!.validators.length, 1);
  });

  it("InitChain validators replace genesis's, its app hash and params are adopted", () => {
    const key = testKey(5).publicKey;
    const s = applyInitChain(stateFromGenesis(testGenesis(2)), {
      consensusParams: {
        block: undefined,
        evidence: undefined,
        validator: undefined,
        version: { appVersion: 3n },
      },
      validators: [{ pubKey: { sum: { $case: "ed25519", ed25519: key } }, power: 99n }],
      appHash: Uint8Array.of(0xab),
    });
    assert.equal(s.validators!.validators.length, 1);
    assert.equal(
      hex(
        s.validators!.validators[0]!.pubKey!.sum!.$case === "ed25519"
          ? s.validators!.validators[0]!.pubKey!.sum!.ed25519
          : new Uint8Array(),
      ),
      hex(key),
    );
    assert.equal(s.nextValidators!.validators[0]!.votingPower, 99n);
    assert.equal(hex(s.appHash), "ab");
    assert.equal(s.consensusParams.version.appVersion, 3n);
    assert.equal(s.version.consensus.app, 3n);
  });

  it("refuses a chain whose validator set is empty in genesis and after InitChain", () => {
    assert.throws(
      () =>
        applyInitChain(stateFromGenesis(testGenesis(0)), {
          consensusParams: undefined,
          validators: [],
          appHash: new Uint8Array(),
        }),
      (e: unknown) =>
        e instanceof StateError && /empty in genesis and still empty after InitChain/.test(e.message),
    );
  });

  it("leaves genesis validators with power 0 out of the set and out of InitChain", () => {
    const g = testGenesis(3);
    const zero = { ...g.validators[1]!, power: 0n };
    const genesis = { ...g, validators: [g.validators[0]!, zero, g.validators[2]!] };
    const s = stateFromGenesis(genesis);
    const hexKeys = (vs: { pubKey?: { sum?: { $case: string; ed25519?: Uint8Array } } }[]) =>
      vs.map((v) => hex(v.pubKey!.sum!.ed25519!)).sort();
    const expected = [hex(g.validators[0]!.pubKey), hex(g.validators[2]!.pubKey)].sort();
    assert.deepEqual(hexKeys(s.validators!.validators), expected);
    assert.deepEqual(hexKeys(s.nextValidators!.validators), expected);
    assert.deepEqual(hexKeys(initChainValidators(genesis)), expected);
    assert.ok(genesisValidatorUpdates(genesis).every((u) => u.power > 0n));
    // Only zero-power validators: an empty set, which InitChain must fill.
    const none = stateFromGenesis({ ...g, validators: [zero] });
    assert.equal(none.validators!.validators.length, 0);
    assert.deepEqual(initChainValidators({ ...g, validators: [zero] }), []);
  });

  it("checks InitChain validators against the params InitChain itself returns", () => {
    const genesis = testGenesis(1);
    const base = stateFromGenesis(genesis);
    // Genesis allows only secp256k1; the app switches to ed25519 and names an ed25519 validator.
    const state = {
      ...base,
      consensusParams: { ...base.consensusParams, validator: { pubKeyTypes: ["secp256k1"] } },
    };
    const key = testKey(5).publicKey;
    const s = applyInitChain(state, {
      consensusParams: {
        block: undefined,
        evidence: undefined,
        validator: { pubKeyTypes: ["ed25519"] },
        version: undefined,
      },
      validators: [{ pubKey: { sum: { $case: "ed25519", ed25519: key } }, power: 7n }],
      appHash: new Uint8Array(),
    });
    assert.deepEqual(s.consensusParams.validator.pubKeyTypes, ["ed25519"]);
    assert.equal(s.validators!.validators[0]!.votingPower, 7n);
  });
});
