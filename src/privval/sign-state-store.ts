// Where the signer keeps its last-sign state. The file store writes priv_validator_state.json
// durably (temporary file, fsync, rename, fsync of the directory) through the key-file codec of
// src/types, so the node, `init` and `unsafe-reset-priv-validator` share one file format.

import {
  INITIAL_PRIV_VALIDATOR_STATE,
  type PrivValidatorState,
  readPrivValidatorState,
  writePrivValidatorState,
} from "../types/key-file-priv-validator-state.js";

export interface SignStateStore {
  /** Replaces the stored state; returns (or resolves) only once the state would survive a crash. */
  save(state: PrivValidatorState): void | Promise<void>;
}

export interface LoadedSignStateStore extends SignStateStore {
  readonly state: PrivValidatorState;
}

/** The state file at `path`; a missing or invalid file throws the key-file error naming it. */
export function fileSignStateStore(path: string): LoadedSignStateStore {
  const state = readPrivValidatorState(path);
  return {
    state,
    save(next) {
      writePrivValidatorState(path, next);
    },
  };
}

/** A store in memory, for simulations of many validators in one process. */
export function memorySignStateStore(
  initial: PrivValidatorState = INITIAL_PRIV_VALIDATOR_STATE,
): LoadedSignStateStore & {
  readonly saved: PrivValidatorState[];
} {
  const saved: PrivValidatorState[] = [];
  return {
    get state() {
      return saved.at(-1) ?? { ...initial };
    },
    saved,
    save(next) {
      saved.push({ ...next });
    },
  };
}
