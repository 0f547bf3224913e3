// The state before the first block (v0.34 MakeGenesisState), and InitChain's effect on it: when
// the app answers InitChain with validators they replace genesis's, with params they update them,
// with an app hash it becomes the state's.
import { merkleRoot } from "../crypto/merkle.js";
import { BLOCK_PROTOCOL_VERSION } from "../types/block-limits.js";
import { updateConsensusParams, validateConsensusParams } from "../types/consensus-params.js";
import type { GenesisDoc } from "../types/genesis.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { ResponseInitChain, ValidatorUpdate } from "../wire/generated/tendermint/abci/types.js";
import type { State } from "../wire/generated/tendermint/state/types.js";
import { StateError } from "./errors.js";
import { toValidatorChanges, validateValidatorUpdates } from "./validator-updates.js";

/** The software version recorded in State (Tendermint records its own semver). */
export const STATE_SOFTWARE_VERSION = "0.34.24";

/**
 * Genesis validators as ABCI ValidatorUpdates (what InitChain carries). A validator with power 0
 * (which genesis.json may list) has no vote: it is not a member of the set, so it is left out
 * here; building the set from it would fail, since power 0 means removal.
 */
export function genesisValidatorUpdates(genesis: GenesisDoc): ValidatorUpdate[] {
  return genesis.validators
    .filter((v) => v.power !== 0n)
    .map((v) => ({
      pubKey: { sum: { $case: "ed25519", ed25519: v.pubKey } },
      power: v.power,
    }));
}

/** Validators and next validators for a list of updates: NewValidatorSet, next incremented once. */
function setsFrom(updates: readonly ValidatorUpdate[]) {
  const current = ValidatorSet.create(toValidatorChanges(updates));
  const next = current.isEmpty() ? current : current.incrementProposerPriority(1);
  return { validators: current.toProto(), nextValidators: next.toProto() };
}

export function stateFromGenesis(genesis: GenesisDoc): State {
  const { validators, nextValidators } = setsFrom(genesisValidatorUpdates(genesis));
  return {
    version: { consensus: { block: BLOCK_PROTOCOL_VERSION, app: 0n }, software: STATE_SOFTWARE_VERSION },
    chainId: genesis.chainId,
    initialHeight: genesis.initialHeight,
    lastBlockHeight: 0n,
    lastBlockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
    lastBlockTime: genesis.genesisTime,
    nextValidators,
    validators,
    lastValidators: ValidatorSet.empty().toProto(),
    lastHeightValidatorsChanged: genesis.initialHeight,
    consensusParams: genesis.consensusParams,
    lastHeightConsensusParamsChanged: genesis.initialHeight,
    lastResultsHash: new Uint8Array(0),
    appHash: genesis.appHash,
  };
}

/**
 * The genesis state after InitChain (only applied while the state is still at genesis). Throws
 * StateError when neither genesis nor the app gives any validator, or the app's answer is invalid.
 */
export function applyInitChain(state: State, response: ResponseInitChain): State {
  let next: State = { ...state };
  if (response.appHash.length > 0) next.appHash = response.appHash;
  // Params first: the validators InitChain names are checked against the params it sets.
  if (response.consensusParams !== undefined) {
    const params = updateConsensusParams(next.consensusParams, response.consensusParams);
    try {
      validateConsensusParams(params);
    } catch (err) {
      throw new StateError(
        "STATE_INVALID_PARAMS_UPDATE",
        `InitChain consensus params are invalid: ${(err as Error).message}`,
        state.initialHeight,
        { cause: err },
      );
    }
    next.consensusParams = params;
    next.version = {
      ...next.version,
      consensus: { ...next.version.consensus, app: params.version.appVersion },
    };
  }
  if (response.validators.length > 0) {
    validateValidatorUpdates(response.validators, next.consensusParams.validator, state.initialHeight);
    try {
      next = { ...next, ...setsFrom(response.validators) };
    } catch (err) {
      throw new StateError(
        "STATE_INVALID_VALIDATOR_UPDATE",
        `InitChain validators are invalid: ${(err as Error).message}`,
        state.initialHeight,
        { cause: err },
      );
    }
  } else if ((state.validators?.validators.length ?? 0) === 0) {
    throw new StateError(
      "STATE_INVALID_VALIDATOR_UPDATE",
      "the validator set is empty in genesis and still empty after InitChain",
      state.initialHeight,
    );
  }
  // Tendermint sets the results hash of the (empty) genesis block to the empty tree's hash.
  next.lastResultsHash = merkleRoot([]);
  return next;
}
