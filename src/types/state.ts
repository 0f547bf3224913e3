// The node's replicated state between blocks: tendermint.state.State, exactly as v0.34 stores it,
// plus the few derived facts other modules ask of it.
import type { State, Version } from "../wire/generated/tendermint/state/types.js";
import { State as StateCodec } from "../wire/generated/tendermint/state/types.js";
import { BLOCK_PROTOCOL_VERSION } from "./block-limits.js";

export type { State, Version };
export { StateCodec };

/** The version a state starts with: block protocol 11, the given app version and software. */
export function stateVersion(appVersion: bigint, software: string): Version {
  return { consensus: { block: BLOCK_PROTOCOL_VERSION, app: appVersion }, software };
}

/** True for the zero State (nothing loaded yet): Tendermint tests `state.IsEmpty()` by validators. */
export function stateIsEmpty(state: State): boolean {
  return state.validators === undefined;
}

/** The height of the next block this state expects. */
export function nextBlockHeight(state: State): bigint {
  return state.lastBlockHeight === 0n ? state.initialHeight : state.lastBlockHeight + 1n;
}

export function encodeState(state: State): Uint8Array {
  return StateCodec.encode(state).finish();
}

export function decodeState(bytes: Uint8Array): State {
  return StateCodec.decode(bytes);
}
