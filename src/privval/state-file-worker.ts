// The body of the signer's state-writer thread (state-file-writer.ts). It runs the durable
// replacement of a state file with blocking calls, so one signature costs the main thread one
// message out and one answer back instead of a thread-pool round trip (and a wait for the main
// thread's turn) per open, write, fsync, close, rename and directory fsync. A replacement comes in
// two messages: `stage` writes and fsyncs the temporary file at once; `commit` (sent once the
// caller's consensus log is synced) renames it over the file and fsyncs the directory, or `abort`
// removes it. `datasync-then-commit` is the commit for a log that lends its descriptor (log-sync.ts):
// the log's fdatasync runs here, right before the rename, and one answer tells both outcomes; if the
// fdatasync fails the staged file is removed and the old state stays. Messages are handled in the
// order sent, so a commit always follows its stage, and the rename always follows the log's sync.
import { fdatasyncSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { openDirectory, replaceWithStagedSync, stageFileSync } from "../types/key-file-atomic-write.js";

export type StateFileRequest =
  | { kind: "stage"; id: number; path: string; temporary: string; content: string; mode: number }
  | { kind: "commit"; id: number }
  | { kind: "abort"; id: number }
  /** The log's fdatasync on `fd`, then the commit of `id` if it succeeded, else its abort. */
  | { kind: "datasync-then-commit"; id: number; fd: number }
  /** Answered at once: the thread is up (StateFileWriter.warmUp). */
  | { kind: "ping"; id: number };

/**
 * One answer per request id: after its commit, or at once when its stage or commit failed. The
 * answer to a datasync-then-commit also says whether the log's fdatasync succeeded (`synced`); it
 * is sent even when the stage had failed, since the log waits for it.
 */
export type StateFileAnswer =
  | { id: number; ok: true; synced?: true }
  | { id: number; ok: false; message: string; code: string | undefined; synced?: boolean };

const port = parentPort;
if (port === null) throw new Error("state-file-worker must run in a worker thread");

/** Staged replacements waiting for their commit (or abort), by request id. */
const staged = new Map<number, { path: string; temporary: string }>();
/** Directories kept open for their fsync, one open per directory for the thread's life. */
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

port.on("message", (request: StateFileRequest) => {
  if (request.kind === "ping") {
    port.postMessage({ id: request.id, ok: true } satisfies StateFileAnswer);
    return;
  }
  if (request.kind === "stage") {
    try {
      stageFileSync(request.temporary, request.content, request.mode);
      staged.set(request.id, { path: request.path, temporary: request.temporary });
    } catch (error) {
      port.postMessage(failed(request.id, error));
    }
    return;
  }
  const entry = staged.get(request.id);
  staged.delete(request.id);
  if (request.kind === "datasync-then-commit") {
    try {
      fdatasyncSync(request.fd);
    } catch (error) {
      // The log is not durable: the state must not get ahead of it, so the old file stays.
      try {
        if (entry !== undefined) rmSync(entry.temporary, { force: true });
      } catch {
        // A stray temporary file is harmless: readers take only the file's own name.
      }
      port.postMessage({ ...failed(request.id, error), synced: false } satisfies StateFileAnswer);
      return;
    }
    if (entry === undefined) {
      port.postMessage({
        id: request.id,
        ok: false,
        message: "nothing staged",
        code: undefined,
        synced: true,
      });
      return;
    }
    try {
      replaceWithStagedSync(entry.temporary, entry.path, directoryFd(entry.path));
      port.postMessage({ id: request.id, ok: true, synced: true } satisfies StateFileAnswer);
    } catch (error) {
      port.postMessage({ ...failed(request.id, error), synced: true } satisfies StateFileAnswer);
    }
    return;
  }
  if (entry === undefined) return; // its stage failed and was answered already
  if (request.kind === "abort") {
    try {
      rmSync(entry.temporary, { force: true });
    } catch {
      // A stray temporary file is harmless: readers take only the file's own name.
    }
    return;
  }
  try {
    replaceWithStagedSync(entry.temporary, entry.path, directoryFd(entry.path));
    port.postMessage({ id: request.id, ok: true } satisfies StateFileAnswer);
  } catch (error) {
    port.postMessage(failed(request.id, error));
  }
});
