// Whether a block can come from a validator other than this node: v0.34's onlyValidatorIsUs (a
// chain whose only validator is us needs no block sync) and its converse for what only serves
// other proposers' blocks (the admitted digests' memo, wire/admitted-tx-digests.ts). One rule for
// both, read from the chain state the node runs on.

import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { ValidatorSet } from "../wire/generated/tendermint/types/validator.js";

function isOnlyUs(set: ValidatorSet | undefined, address: Uint8Array | undefined): boolean {
  const validators = set?.validators ?? [];
  return (
    address !== undefined &&
    validators.length === 1 &&
    Buffer.from(validators[0]!.address).equals(Buffer.from(address))
  );
}

/** v0.34's onlyValidatorIsUs: the current set is this node alone (`address`: ours, if a validator). */
export function onlyValidatorIsUs(state: ChainState, address: Uint8Array | undefined): boolean {
  return isOnlyUs(state.validators, address);
}

/**
 * Whether another validator may propose a block we must check: unless this node is the only
 * validator of the current set AND of the next one (a set change announced in this state takes
 * effect at a height whose txs are being admitted now). A node that is not a validator (a full
 * node) always checks others' blocks.
 */
export function othersMayPropose(state: ChainState, address: Uint8Array | undefined): boolean {
  return !(isOnlyUs(state.validators, address) && isOnlyUs(state.nextValidators, address));
}
