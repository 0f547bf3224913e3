// A validator as v0.34 writes types.Validator: address, pub_key, voting_power, proposer_priority.

import type { JsonForm } from "../../rpc/json/json-form.js";
import { type PubKeyInput, pubKeyJson } from "../../rpc/json/json-keys.js";
import { hexUpper, int64 } from "../../rpc/json/json-primitives.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import type { Validator } from "../../wire/generated/tendermint/types/validator.js";

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
