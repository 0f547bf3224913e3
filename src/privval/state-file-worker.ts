// The body of the signer's state-writer thread (state-file-writer.ts). It runs the durable
// replacement of a state file with blocking calls, so one signature costs the main thread one
// message out and one answer back instead of a thread-pool round trip (and a wait for the main
// thread's turn) per open, write, fsync, close, rename and directory fsync. A replacement comes in
// two messages: `stage` writes and fsyncs the temporary file at once; `commit` (sent once the
// caller's consensus log is synced) renames it over the file and fsyncs the directory, or `abort`
// removes it. Messages are handled in the order sent, so a commit always follows its stage.
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";
import { openDirectory, replaceWithStagedSync, stageFileSync } from "../types/key-file-atomic-write.js";

export type StateFileRequest =
  | { kind: "stage"; id: number; path: string; temporary: string; content: string; mode: number }
  | { kind: "commit"; id: number }
  | { kind: "abort"; id: number }
  /** Answered at once: the thread is up (StateFileWriter.warmUp). */
  | { kind: "ping"; id: number };

/** One answer per request id: after its commit, or at once when its stage or commit failed. */
export type StateFileAnswer =
  | { id: number; ok: true }
  | { id: number; ok: false; message: string; code: string | undefined };

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

function failed(id: number, error: unknown): StateFileAnswer {
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
  if (entry === undefined) return; // its stage failed and was answered already
  staged.delete(request.id);
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
