// InitChain's validators: genesis's, in validator-set order (power descending, then address), as
// Tendermint sends them after building the set.
import { genesisValidatorUpdates } from "../state/genesis-state.js";
import { toValidatorChanges } from "../state/validator-updates.js";
import type { GenesisDoc } from "../types/genesis.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { ValidatorUpdate } from "../wire/generated/tendermint/abci/types.js";

export function initChainValidators(genesis: GenesisDoc): ValidatorUpdate[] {
  const updates = genesisValidatorUpdates(genesis);
  if (updates.length === 0) return [];
  const set = ValidatorSet.create(toValidatorChanges(updates));
  return set.validators.map((v) => ({ pubKey: v.pubKey, power: v.votingPower }));
}
