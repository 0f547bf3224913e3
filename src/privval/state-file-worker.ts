// The body of the signer's state-writer thread (state-file-writer.ts). It runs the durable
// replacement of a state file with blocking calls, so one signature costs the main thread one
// message out and one answer back instead of a thread-pool round trip (and a wait for the main
// thread's turn) per open, write, fsync, close, rename and directory fsync. A replacement comes in
// two messages: `stage` writes the temporary file at once (over the previous state's inode, kept
// under a spare name, when there is one: state-file-spare.ts) and syncs it (a spare here, a fresh
// file on a pool thread);
// `commit` (sent once the caller's consensus log is synced) renames it over the file and fsyncs the
// directory once the stage's fsync is done, or `abort` removes it. `datasync-then-commit` is the
// commit for a log that lends its descriptor (log-sync.ts): the log's fdatasync runs here, blocking
// this thread, while a fresh stage's fsync runs on the pool, so the two disk waits overlap instead
// of adding up (docs/network.md, "seventh pass"); the rename runs only once both are done, and one
// answer tells both outcomes. If the fdatasync fails the staged file is removed and the old state
// stays. Messages are handled in the order sent, so a commit always follows its stage.
import { closeSync, fdatasyncSync, fsync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { openDirectory, replaceWithStagedSync, writeTemporarySync } from "../types/key-file-atomic-write.js";
import { linkSpare, releaseSpare, spareLinked, writeSpare } from "./state-file-spare.js";

export type StateFileRequest =
  | {
      kind: "stage";
      id: number;
      path: string;
      temporary: string;
      content: string;
      mode: number;
      /** Test-only (StateFileWriterOptions.testHoldStages): the stage never finishes. */
      hold?: true;
      /** Test-only (StateFileWriterOptions.testFailStages): the stage's fsync fails (EBADF). */
      fail?: true;
    }
  | { kind: "commit"; id: number }
  | { kind: "abort"; id: number }
  /** The log's fdatasync on `fd`, then the commit of `id` if it succeeded, else its abort. */
  | { kind: "datasync-then-commit"; id: number; fd: number }
  /** Answered at once: the thread is up (StateFileWriter.warmUp). */
  | { kind: "ping"; id: number };

/**
 * One answer per request id: after its commit, or as soon as its stage or commit failed. The
 * answer to a datasync-then-commit also says whether the log's fdatasync succeeded (`synced`); it
 * is sent even when the stage had failed, since the log waits for it.
 */
export type StateFileAnswer =
  | { id: number; ok: true; synced?: true }
  | { id: number; ok: false; message: string; code: string | undefined; synced?: boolean };

const port = parentPort;
if (port === null) throw new Error("state-file-worker must run in a worker thread");

interface Staged {
  path: string;
  temporary: string;
  /** Resolves once the temporary file is written, fsynced and closed; rejects when that failed. */
  ready: Promise<void>;
}

/** Staged replacements waiting for their commit (or abort), by request id. */
const staged = new Map<number, Staged>();
/**
 * The last rename asked for, per path. Each stage's fsync runs on the pool, so a later stage's can
 * finish first; renamed in that order, the older state would land over the newer after the newer
 * signature left. Renames of one path therefore run in the order their commits came.
 */
const renames = new Map<string, Promise<void>>();

/** `onReady` once `ready` resolved and every earlier rename of `path` ran; else `onFailed`. */
function afterEarlierRenames(
  path: string,
  ready: Promise<void>,
  onReady: () => void,
  onFailed: () => void,
): void {
  const earlier = renames.get(path) ?? Promise.resolve();
  // neither callback throws (replace answers its own failure), so `mine` always resolves
  const mine = earlier.then(() => ready).then(onReady, onFailed);
  renames.set(path, mine);
  void mine.then(() => {
    if (renames.get(path) === mine) renames.delete(path);
  });
}

/**
 * Directories kept open for their fsync, one open per directory for the thread's life. Node closes
 * the descriptors a worker thread opened when the thread exits, so none outlives the writer.
 */
const directories = new Map<string, number | null>();

function directoryFd(path: string): number | null {
  const directory = dirname(path);
  let fd = directories.get(directory);
  if (fd === undefined) {
    fd = openDirectory(directory);
    directories.set(directory, fd);
  }
  return fd;
}

function failed(id: number, error: unknown): Extract<StateFileAnswer, { ok: false }> {
  const e = error as NodeJS.ErrnoException;
  return { id, ok: false, message: e?.message ?? String(error), code: e?.code };
}

/** A stage's failure names the temporary file (node's write, fsync and close errors name none). */
function naming(temporary: string, error: unknown): Error {
  const e = error as NodeJS.ErrnoException;
  const named: NodeJS.ErrnoException = new Error(`${temporary}: ${e?.message ?? String(error)}`);
  if (e?.code !== undefined) named.code = e.code;
  return named;
}

function removeQuietly(temporary: string): void {
  try {
    rmSync(temporary, { force: true });
  } catch {
    // A stray temporary file is harmless: readers take only the file's own name.
  }
}

/** A staged file that will not be renamed: removed (a spare is then never reused). */
function discard(entry: Staged): void {
  try {
    releaseSpare(entry.path, entry.temporary);
  } catch {
    // A stray file is harmless: readers take only the file's own name.
  }
}

/** Test-only (`fail`): a descriptor number no process has open. */
const NO_SUCH_FD = 2 ** 30;

/**
 * The staged file written here (a page-cache copy) and synced: a spare here and now, a fresh
 * temporary file on a pool thread, so that this thread is free for the log's fdatasync meanwhile.
 * On failure the file is removed.
 */
function stage(
  path: string,
  temporary: string,
  content: string,
  mode: number,
  test: { hold: boolean; fail: boolean },
): { name: string; ready: Promise<void> } {
  let name = temporary;
  let fd: number;
  try {
    const spare = writeSpare(path, content, mode);
    if (spare === undefined) fd = writeTemporarySync(temporary, content, mode);
    else ({ name, fd } = spare);
  } catch (error) {
    return { name, ready: Promise.reject(error) };
  }
  const close = (error: unknown) => {
    try {
      closeSync(fd);
    } catch (closeError) {
      error ??= closeError;
    }
    if (error !== undefined && error !== null) {
      if (name === temporary) removeQuietly(temporary);
      else releaseSpare(path, name);
      throw error;
    }
  };
  if (test.hold) return { name, ready: new Promise<void>(() => {}) }; // a test's stage still running when the thread stops
  // A test's failing disk: the sync runs on a descriptor no process has open, so it fails (EBADF)
  // as a real fsync error would, through the same close-and-remove path.
  const syncFd = test.fail ? NO_SUCH_FD : fd;
  // A reused spare needs only its data and length (fdatasync): its inode and directory entry are
  // durable already, and its times matter to no reader. That sync writes no journal commit, so it
  // runs here, blocking this thread for about a tenth of a millisecond before the log's fdatasync
  // (whose request is queued behind this stage): a trip to node's thread pool would instead queue
  // it behind the pool's other work (the stores' synced batches, the block files, the index), so a
  // signature would wait for the node's busiest moments (docs/storage.md, "the spare synced on the
  // writer's thread").
  if (name !== temporary) {
    try {
      fdatasyncSync(syncFd);
    } catch (error) {
      return { name, ready: new Promise<void>((resolve) => resolve(close(error))) };
    }
    return { name, ready: new Promise<void>((resolve) => resolve(close(undefined))) };
  }
  // A fresh file is fsynced whole, on the pool: its inode, blocks and directory entry make a
  // journal commit, which the log's fdatasync on this thread then overlaps.
  return {
    name,
    ready: new Promise<void>((resolve, reject) =>
      fsync(syncFd, (error) => (error ? reject(error) : resolve())),
    ).then(() => close(undefined), close),
  };
}

/**
 * The staged file renamed over its path and the directory fsynced, answered with `extra`. The
 * state file's inode before the rename keeps a spare name (state-file-spare.ts) for the next stage.
 */
function replace(id: number, entry: Staged, extra: { synced?: true }): void {
  const spare = linkSpare(entry.path, entry.temporary);
  try {
    replaceWithStagedSync(entry.temporary, entry.path, directoryFd(entry.path));
    if (spare !== undefined) spareLinked(entry.path, spare);
    port!.postMessage({ id, ok: true, ...extra } satisfies StateFileAnswer);
  } catch (error) {
    if (spare !== undefined) releaseSpare(entry.path, spare);
    port!.postMessage({ ...failed(id, error), ...extra } satisfies StateFileAnswer);
  }
}

port.on("message", (request: StateFileRequest) => {
  if (request.kind === "ping") {
    port.postMessage({ id: request.id, ok: true } satisfies StateFileAnswer);
    return;
  }
  if (request.kind === "stage") {
    const staging = stage(request.path, request.temporary, request.content, request.mode, {
      hold: request.hold === true,
      fail: request.fail === true,
    });
    const entry: Staged = {
      path: request.path,
      temporary: staging.name,
      ready: staging.ready.catch((error: unknown) => {
        throw naming(staging.name, error);
      }),
    };
    staged.set(request.id, entry);
    // A failed stage is answered at once; its commit (or the log's sync) then finds nothing staged.
    entry.ready.catch((error: unknown) => {
      if (staged.get(request.id) === entry) staged.delete(request.id);
      port.postMessage(failed(request.id, error));
    });
    return;
  }
  const entry = staged.get(request.id);
  staged.delete(request.id);
  if (request.kind === "datasync-then-commit") {
    try {
      // Blocks this thread; the stage's fsync goes on on the pool meanwhile.
      fdatasyncSync(request.fd);
    } catch (error) {
      // The log is not durable: the state must not get ahead of it, so the old file stays. The
      // temporary file is removed now (its name unlinked; an fsync still running on the pool
      // finishes on the nameless file), so none is left behind when the failure is answered.
      if (entry !== undefined) discard(entry);
      port.postMessage({ ...failed(request.id, error), synced: false } satisfies StateFileAnswer);
      return;
    }
    const nothingStaged = () =>
      port.postMessage({
        id: request.id,
        ok: false,
        message: "nothing staged",
        code: undefined,
        synced: true,
      } satisfies StateFileAnswer);
    // The rename waits for both: the log's fdatasync (done above) and the stage's fsync.
    if (entry === undefined) nothingStaged();
    else
      afterEarlierRenames(
        entry.path,
        entry.ready,
        () => replace(request.id, entry, { synced: true }),
        nothingStaged,
      );
    return;
  }
  if (entry === undefined) return; // its stage failed and was answered already
  if (request.kind === "abort") {
    entry.ready.then(
      () => discard(entry),
      () => {},
    );
    return;
  }
  afterEarlierRenames(
    entry.path,
    entry.ready,
    () => replace(request.id, entry, {}),
    () => {}, // answered by the stage's failure
  );
});
