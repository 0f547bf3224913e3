// A validator as v0.34 writes types.Validator: address, pub_key, voting_power, proposer_priority.

import type { Validator } from "../generated/tendermint/types/validator.js";
import type { JsonForm } from "./json-form.js";
import { type PubKeyInput, pubKeyJson } from "./json-keys.js";
import { hexUpper, int64 } from "./json-primitives.js";
import type { JsonValue } from "./json-text.js";

export interface ValidatorInput {
  address: Uint8Array | string;
  pubKey: PubKeyInput | undefined;
  votingPower: bigint;
  proposerPriority: bigint;
}

export function validatorJson(v: Validator | ValidatorInput, form: JsonForm): JsonValue {
  return {
    address: hexUpper(v.address),
    pub_key: pubKeyJson(v.pubKey, form),
    voting_power: int64(v.votingPower),
    proposer_priority: int64(v.proposerPriority),
  };
}
