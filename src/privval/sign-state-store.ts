// Where the signer keeps its last-sign state. The file store writes priv_validator_state.json
// durably (temporary file, fsync, rename, fsync of the directory) through the key-file codec of
// src/types, so the node, `init` and `unsafe-reset-priv-validator` share one file format. It
// writes on a thread of its own (StateFileWriter), or through node's async fs when a test stands
// in for the file system: either way the event loop keeps turning while the disk syncs, and
// `save` resolves only once the whole sequence is done (the signer releases nothing before that).
//
// Given the node's own log (LogSync.syncRecording), the file store makes the log's sync the
// signature's one durable step: the state goes into the log as a record of its own, the log is
// fdatasynced on a thread of the store's (log-sync-thread.ts; not the pool the stores' batches share), and `save`
// resolves then. The file is written after, off the signature's path and at most once a second (trailing-state-file.ts), so it
// is never ahead of the log; a crash may leave it behind, and start-up rewrites it from the log
// before anything is signed (state-from-log.ts). That takes the spare's fdatasync, the rename and
// the directory fsync (two journal commits) off every signature (docs/storage.md, "The log as the
// signature's one durable step").

import type { AtomicWriteFs } from "../types/key-file-atomic-write.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  type PrivValidatorState,
  privValidatorStateFileText,
  readPrivValidatorState,
  writePrivValidatorStateAsync,
} from "../types/key-file-priv-validator-state.js";
import { type LogSync, syncedOnPool } from "./log-sync.js";
import { LogSyncThread } from "./log-sync-thread.js";
import { StateFileWriter } from "./state-file-writer.js";
import { signStateRecordOfText } from "./state-from-log.js";
import { TrailingStateFile } from "./trailing-state-file.js";

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
  /** The thread that runs a recording log's fdatasync (a new one unless given). */
  logSyncer?: LogSyncThread;
  /** How often at most the file is written behind a recording log (trailing-state-file.ts). */
  fileEveryMs?: number;
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
  const logSyncer = options.logSyncer ?? new LogSyncThread();
  const trailing = new TrailingStateFile(path, writer, options.fileEveryMs);
  return {
    state,
    save: (next, after) => {
      if (after?.syncRecording === undefined)
        return writer.write(path, privValidatorStateFileText(next), 0o600, after);
      if (trailing.failure !== undefined) throw trailing.failure;
      // The file is written only once the log holds the state durably: never ahead of it. The
      // record is the file's text, so the text is built once for both.
      const text = privValidatorStateFileText(next);
      return after
        .syncRecording(signStateRecordOfText(text), (fd) => logSyncer.datasync(fd))
        .then(() => trailing.write(text));
    },
    warmUp: async () => {
      await Promise.all([writer.warmUp(), logSyncer.warmUp()]);
    },
    close: async () => {
      await trailing.flush();
      await Promise.all([writer.close(), logSyncer.close()]);
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
