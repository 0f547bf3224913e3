// Whether a block can come from another validator (src/state/other-proposers.ts): v0.34's
// onlyValidatorIsUs for block sync, and othersMayPropose for the admitted digests' memo, read from
// the current and the next validator set.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { onlyValidatorIsUs, othersMayPropose } from "../../src/state/other-proposers.js";
import { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";

const us = new Uint8Array(20).fill(1);
const other = new Uint8Array(20).fill(2);

function setOf(...addresses: Uint8Array[]): ValidatorSet {
  return {
    validators: addresses.map((address) => ({
      address,
      pubKey: { sum: { $case: "ed25519" as const, ed25519: address } },
      votingPower: 10n,
      proposerPriority: 0n,
    })),
    proposer: undefined,
    totalVotingPower: 10n * BigInt(addresses.length),
  };
}

function stateWith(validators: ValidatorSet, nextValidators: ValidatorSet = validators): ChainState {
  return { ...ChainState.decode(new Uint8Array(0)), validators, nextValidators };
}

describe("onlyValidatorIsUs", () => {
  it("holds for a set of this node alone, and for no other set or no address", () => {
    assert.equal(onlyValidatorIsUs(stateWith(setOf(us)), us), true);
    assert.equal(onlyValidatorIsUs(stateWith(setOf(other)), us), false);
    assert.equal(onlyValidatorIsUs(stateWith(setOf(us, other)), us), false);
    assert.equal(onlyValidatorIsUs(stateWith(setOf(us)), undefined), false);
    assert.equal(onlyValidatorIsUs(stateWith(setOf()), us), false);
  });
});

describe("othersMayPropose", () => {
  it("is false only when this node is the only validator now and next", () => {
    assert.equal(othersMayPropose(stateWith(setOf(us)), us), false);
  });

  it("is true with another validator in the current or the next set", () => {
    assert.equal(othersMayPropose(stateWith(setOf(us, other)), us), true);
    assert.equal(othersMayPropose(stateWith(setOf(us), setOf(us, other)), us), true);
    assert.equal(othersMayPropose(stateWith(setOf(us, other), setOf(us)), us), true);
    assert.equal(othersMayPropose(stateWith(setOf(other)), us), true);
  });

  it("is true on a node that is not a validator (a full node checks every block)", () => {
    assert.equal(othersMayPropose(stateWith(setOf(other)), undefined), true);
    assert.equal(othersMayPropose(stateWith(setOf(us)), undefined), true);
  });
});
