// Durable replacement of the signer's state file on a thread of its own (state-file-worker.ts).
// Through node's async fs each of the nine steps (open, write, fsync, close, rename, directory
// open, fsync, close, plus the wait for the log) was a thread-pool round trip that then waited for
// the main thread's turn, which under load is the consensus loop's: ~25 ms p50 per signature on a
// validator of four against ~0.6 ms for the fsync itself (docs/network.md). Here the main thread
// posts the stage at once, then the commit, and hears one answer. The crash order is the same as
// writeFileAtomicAsync's: the new state is written and fsynced under a temporary name beside the
// log's sync, renamed over the file only after it, and the directory fsynced before the answer, so
// the file is never ahead of the log and nothing is released before both. When the log lends its
// descriptor (LogSync), the commit request carries its fdatasync too, run on the thread while the
// stage's fsync runs on the pool, the rename once both are done: one message out and one answer
// back per signature, the log's sync included, and the two disk waits overlapped.
import { fdatasync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Worker } from "node:worker_threads";
import { startWorkerBeside } from "../crypto/worker-start.js";
import { PrivvalError } from "./errors.js";
import type { LogSync } from "./log-sync.js";
import type { StateFileAnswer, StateFileRequest } from "./state-file-worker.js";

interface Pending {
  /** The thread the write went to: its death fails this write, not one sent to its successor. */
  worker: Worker;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * A failure of the writer's thread: PRIVVAL_STATE_WRITE_FAILED, caused by the fs error it reported
 * (its `code`: EIO, ENOSPC...) when it was a step that failed.
 */
function writeFailed(message: string, fsCode?: string): PrivvalError {
  const cause = fsCode === undefined ? undefined : Object.assign(new Error(message), { code: fsCode });
  return new PrivvalError("PRIVVAL_STATE_WRITE_FAILED", message, { cause });
}

/** The log's fdatasync on the thread pool, as the log runs it without a signer's thread. */
function poolDatasync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

export interface StateFileWriterOptions {
  /**
   * Test-only: a stage (every one, or those whose content the function picks) writes its temporary
   * file and then never finishes, so a test can stop the thread with a write (and a lent log sync)
   * certainly still out. Never set in a node.
   */
  testHoldStages?: boolean | ((content: string) => boolean);
  /** Test-only: a stage (those whose content the function picks) fails its fsync, as a failing disk would. */
  testFailStages?: (content: string) => boolean;
}

export class StateFileWriter {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  /** Lent log syncs waiting for the thread's answer, by the id of the write they commit. */
  private readonly syncs = new Map<number, Pending>();
  /** Threads that died: a log sync lent now would never be answered. */
  private readonly dead = new WeakSet<Worker>();
  private nextId = 1;

  constructor(private readonly options: StateFileWriterOptions = {}) {}

  /**
   * Replaces the file at `path` with `content` (created with `mode`); resolves once the new file
   * and its name are durable. With `after`, the rename waits for the log's sync, which the thread
   * runs itself (beside the stage's fsync) when the log lends its descriptor; if that sync fails (or the log
   * had failed already), the file is left as it was and the write rejects with the log's error.
   * A failure of any step, or the thread dying with the write out, rejects (the file then holds
   * the old content or the new); a thread dying while it holds the log's sync fails that sync too.
   */
  write(path: string, content: string, mode: number, after?: LogSync): Promise<void> {
    const worker = this.workerNow();
    const id = this.nextId++;
    const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.w${id}.tmp`);
    const done = new Promise<void>((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
    });
    this.refWhileOut(worker);
    this.post(worker, {
      kind: "stage",
      id,
      path,
      temporary,
      content,
      mode,
      ...(this.holds(content) ? { hold: true as const } : {}),
      ...(this.options.testFailStages?.(content) ? { fail: true as const } : {}),
    });
    if (after === undefined) {
      this.post(worker, { kind: "commit", id });
      return done;
    }
    let lent = false;
    let lentFailure: { error: unknown } | undefined;
    const datasync = (fd: number): Promise<void> => {
      lent = true;
      // The thread died before the log lent it the sync: that thread ran no fdatasync, so the log
      // syncs on the pool as it would without a signer and stays healthy (a node shutting down
      // stops the signer's thread before it closes the log). This write already failed with the
      // thread.
      if (this.dead.has(worker)) return poolDatasync(fd);
      const synced = new Promise<void>((resolve, reject) => {
        this.syncs.set(id, { worker, resolve, reject });
      });
      synced.catch((error: unknown) => {
        lentFailure = { error };
      });
      this.refWhileOut(worker);
      this.post(worker, { kind: "datasync-then-commit", id, fd });
      return synced;
    };
    after.syncVia(datasync).then(
      () => {
        // Lent: the thread's one answer settles the write (a log that went on after its lent
        // sync failed does not leave the write waiting). Not lent: the log is durable by other
        // means, so the plain commit goes now.
        if (lent && lentFailure !== undefined)
          this.settle(this.pending, id, (p) => p.reject(lentFailure!.error as Error));
        else if (!lent && this.pending.has(id)) this.post(worker, { kind: "commit", id });
      },
      (error: unknown) => {
        if (!this.pending.has(id)) return;
        if (!lent) this.post(worker, { kind: "abort", id }); // lent: the thread removed it
        this.settle(this.pending, id, (p) => p.reject(error as Error));
      },
    );
    return done;
  }

  private holds(content: string): boolean {
    const hold = this.options.testHoldStages;
    return typeof hold === "function" ? hold(content) : hold === true;
  }

  /**
   * Starts the thread now and resolves once it answers, so the first write does not wait for the
   * thread to load (tens of ms from dist/, a second or more from the sources under tsx).
   */
  warmUp(): Promise<void> {
    const worker = this.workerNow();
    const id = this.nextId++;
    const done = new Promise<void>((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
    });
    this.refWhileOut(worker);
    this.post(worker, { kind: "ping", id });
    return done;
  }

  /** Stops the thread (a node shutting down); writes still out reject. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
  }

  private post(worker: Worker, request: StateFileRequest): void {
    worker.postMessage(request);
  }

  /** Keeps the process alive while a write or a lent sync is out. */
  private refWhileOut(worker: Worker): void {
    if (this.pending.size + this.syncs.size === 1) worker.ref();
  }

  private settle(from: Map<number, Pending>, id: number, how: (p: Pending) => void): void {
    const p = from.get(id);
    if (p === undefined) return;
    from.delete(id);
    if (this.pending.size + this.syncs.size === 0) this.worker?.unref();
    how(p);
  }

  private answered(answer: StateFileAnswer): void {
    if (answer.synced !== undefined) {
      this.settle(this.syncs, answer.id, (p) =>
        answer.synced
          ? p.resolve()
          : p.reject(
              writeFailed(answer.ok ? "" : answer.message, answer.ok ? undefined : (answer.code ?? "EIO")),
            ),
      );
      // A failed log sync rejects the write with the log's own error (the log's promise, above).
      if (answer.synced === false) return;
    }
    this.settle(this.pending, answer.id, (p) =>
      answer.ok ? p.resolve() : p.reject(writeFailed(answer.message, answer.code ?? "EIO")),
    );
  }

  private workerNow(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = startWorkerBeside(import.meta.url, "state-file-worker", undefined);
    worker.unref();
    worker.on("message", (answer: StateFileAnswer) => this.answered(answer));
    // A thread that dies takes its staged writes with it, and any log sync it held (whether that
    // fdatasync ran is unknown, so the log must latch); the next write starts a new thread.
    const died = (reason: string) => {
      this.dead.add(worker);
      if (this.worker === worker) this.worker = undefined;
      const error = writeFailed(`state file writer thread ${reason}`);
      for (const [id, p] of [...this.pending])
        if (p.worker === worker) this.settle(this.pending, id, (q) => q.reject(error));
      for (const [id, p] of [...this.syncs])
        if (p.worker === worker) this.settle(this.syncs, id, (q) => q.reject(error));
    };
    worker.on("error", (error) => died(`failed: ${error.message}`));
    worker.on("messageerror", (error) => {
      died(`sent an unreadable message: ${error.message}`);
      // Its writes are failed above; stopped, it cannot go on to run a lent fdatasync on a
      // descriptor the log may close and reuse, nor a rename nobody waits for.
      void worker.terminate();
    });
    worker.on("exit", (code) => died(`exited with code ${code}`));
    this.worker = worker;
    return worker;
  }
}
