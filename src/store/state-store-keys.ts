// Key layout of state.db: the latest State under one key, then per-height records that sort
// by height (validators info, consensus params info, ABCI responses).
import { heightKey } from "./key-bytes.js";

export const STATE_KEY = Uint8Array.of(0x00);
export const PREFIX_VALIDATORS = 0x01; // validatorsKey:<height> → ValidatorsInfo
export const PREFIX_PARAMS = 0x02; // consensusParamsKey:<height> → ConsensusParamsInfo
export const PREFIX_ABCI_RESPONSES = 0x03; // abciResponsesKey:<height> → ABCIResponses

export const validatorsKey = (height: bigint): Uint8Array => heightKey(PREFIX_VALIDATORS, height);
export const paramsKey = (height: bigint): Uint8Array => heightKey(PREFIX_PARAMS, height);
export const abciResponsesKey = (height: bigint): Uint8Array => heightKey(PREFIX_ABCI_RESPONSES, height);

/** A full validator set is stored at least this often, so a lookup follows at most one pointer. */
export const VALSET_CHECKPOINT_INTERVAL = 100_000n;

/** Height whose record holds the full set for `height`, given the set's last change height. */
export function lastStoredValidatorsHeight(height: bigint, lastHeightChanged: bigint): bigint {
  const checkpoint = height - (height % VALSET_CHECKPOINT_INTERVAL);
  return checkpoint > lastHeightChanged ? checkpoint : lastHeightChanged;
}
