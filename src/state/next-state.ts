// The next-state rules after a block (v0.34 updateState), pure: validator updates from EndBlock at
// height H go into NextValidators, so they take effect at H+2; params updates take effect at H+1;
// the last results hash covers the block's DeliverTx results; the app hash is filled in after
// Commit (withAppHash).
import { updateConsensusParams, validateConsensusParams } from "../types/consensus-params.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { ResponseDeliverTx, ResponseEndBlock } from "../wire/generated/tendermint/abci/types.js";
import type { State } from "../wire/generated/tendermint/state/types.js";
import type { BlockID, Header } from "../wire/generated/tendermint/types/types.js";
import type { ValidatorSet as ProtoValidatorSet } from "../wire/generated/tendermint/types/validator.js";
import { lastResultsHash } from "../wire/hashes.js";
import { StateError } from "./errors.js";
import { toValidatorChanges, validateValidatorUpdates } from "./validator-updates.js";

export interface BlockResults {
  deliverTxs: readonly ResponseDeliverTx[];
  endBlock: ResponseEndBlock;
}

function requireSet(set: ProtoValidatorSet | undefined, which: string, height: bigint): ProtoValidatorSet {
  if (set === undefined)
    throw new StateError("STATE_WRONG_BLOCK", `state has no ${which} validator set`, height);
  return set;
}

/**
 * The state after executing the block with `header` and `blockId`, given the app's answers.
 * Throws StateError for updates the app should not have sent (checked before Commit).
 */
export function nextState(state: State, blockId: BlockID, header: Header, results: BlockResults): State {
  const height = header.height;
  const updates = results.endBlock.validatorUpdates;
  validateValidatorUpdates(updates, state.consensusParams.validator, height);

  let nextValidators = ValidatorSet.fromProto(requireSet(state.nextValidators, "next", height));
  let lastHeightValidatorsChanged = state.lastHeightValidatorsChanged;
  if (updates.length > 0) {
    try {
      nextValidators = nextValidators.updateWithChangeSet(toValidatorChanges(updates));
    } catch (err) {
      throw new StateError(
        "STATE_INVALID_VALIDATOR_UPDATE",
        `error changing validator set: ${(err as Error).message}`,
        height,
        { cause: err },
      );
    }
    // Decided at H, in NextValidators of H+1's state: first used to sign at H+2.
    lastHeightValidatorsChanged = height + 2n;
  }
  nextValidators = nextValidators.incrementProposerPriority(1);

  let consensusParams = state.consensusParams;
  let lastHeightConsensusParamsChanged = state.lastHeightConsensusParamsChanged;
  let version = state.version;
  const paramUpdates = results.endBlock.consensusParamUpdates;
  if (paramUpdates !== undefined) {
    consensusParams = updateConsensusParams(state.consensusParams, paramUpdates);
    try {
      validateConsensusParams(consensusParams);
    } catch (err) {
      throw new StateError(
        "STATE_INVALID_PARAMS_UPDATE",
        `error updating consensus params: ${(err as Error).message}`,
        height,
        { cause: err },
      );
    }
    version = { ...version, consensus: { ...version.consensus, app: consensusParams.version.appVersion } };
    lastHeightConsensusParamsChanged = height + 1n;
  }

  return {
    version,
    chainId: state.chainId,
    initialHeight: state.initialHeight,
    lastBlockHeight: height,
    lastBlockId: blockId,
    lastBlockTime: header.time,
    nextValidators: nextValidators.toProto(),
    validators: state.nextValidators,
    lastValidators: state.validators,
    lastHeightValidatorsChanged,
    consensusParams,
    lastHeightConsensusParamsChanged,
    lastResultsHash: lastResultsHash(results.deliverTxs),
    appHash: new Uint8Array(0),
  };
}

/** The state once Commit answered: its app hash goes into the next block's header. */
export function withAppHash(state: State, appHash: Uint8Array): State {
  return { ...state, appHash };
}
