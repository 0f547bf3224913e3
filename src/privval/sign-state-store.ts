// Where the signer keeps its last-sign state. The file store writes priv_validator_state.json
// durably (temporary file, fsync, rename, fsync of the directory) through the key-file codec of
// src/types, so the node, `init` and `unsafe-reset-priv-validator` share one file format. It
// writes on a thread of its own (StateFileWriter), or through node's async fs when a test stands
// in for the file system: either way the event loop keeps turning while the disk syncs, and
// `save` resolves only once the whole sequence is done (the signer releases nothing before that).

import type { AtomicWriteFs } from "../types/key-file-atomic-write.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  type PrivValidatorState,
  privValidatorStateFileText,
  readPrivValidatorState,
  writePrivValidatorStateAsync,
} from "../types/key-file-priv-validator-state.js";
import { type LogSync, syncedOnPool } from "./log-sync.js";
import { StateFileWriter } from "./state-file-writer.js";

export interface SignStateStore {
  /**
   * Replaces the stored state; returns (or resolves) only once the state would survive a crash.
   * With `after` (the caller's log), the new state may be prepared at once but replaces the
   * stored one only once the log is synced, a sync the store runs (`after.syncVia`, exactly once);
   * if that sync rejects, the stored state stays as it was and `save` rejects with its error.
   */
  save(state: PrivValidatorState, after?: LogSync): void | Promise<void>;
  /** Readies what saves need (the file store's writer thread) so the first save does not wait. */
  warmUp?(): Promise<void>;
  /** Releases what the store holds open (the file store's writer thread); saves still out reject. */
  close?(): Promise<void>;
}

export interface LoadedSignStateStore extends SignStateStore {
  readonly state: PrivValidatorState;
}

export interface FileSignStateStoreOptions {
  /**
   * The file system the writes go through, step by step with async calls, when a test stands in
   * for it. Without it the writes go to `writer`.
   */
  fs?: AtomicWriteFs;
  /** The thread that writes the file (a new one, started at the first save, unless given). */
  writer?: StateFileWriter;
}

/**
 * The state file at `path`, read now (synchronously, at start); a missing or invalid file throws
 * the key-file error naming it. `save` resolves once the new state is durable.
 */
export function fileSignStateStore(
  path: string,
  options: FileSignStateStoreOptions = {},
): LoadedSignStateStore {
  const state = readPrivValidatorState(path);
  const fs = options.fs;
  if (fs !== undefined)
    return {
      state,
      save: (next, after) =>
        writePrivValidatorStateAsync(path, next, fs, after === undefined ? undefined : syncedOnPool(after)),
    };
  const writer = options.writer ?? new StateFileWriter();
  return {
    state,
    save: (next, after) => writer.write(path, privValidatorStateFileText(next), 0o600, after),
    warmUp: () => writer.warmUp(),
    close: () => writer.close(),
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
    save(next, after) {
      if (after === undefined) {
        saved.push({ ...next });
        return;
      }
      return syncedOnPool(after).then(() => {
        saved.push({ ...next });
      });
    },
  };
}
