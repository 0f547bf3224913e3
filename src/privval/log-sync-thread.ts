// The consensus log's fdatasync for the signer's record (sign-state-store.ts: the signature's one
// durable step), run on a thread of its own so it waits neither for node's thread pool, which the
// stores' synced batches share, nor for a state file write under way on the writer's thread.
// Three signatures a height each made a MessagePort round trip when this was a request kind of the
// state file writer: a structured clone and a 'message' event on both threads, ~0.5 ms of the main
// thread's samples a height (docs/storage.md, "Sixteenth pass"). Here a request is two words in a
// SharedArrayBuffer and a futex wake; the thread sleeps in Atomics.wait (log-sync-thread-worker.ts)
// and the main thread awaits the answer word with Atomics.waitAsync. The fdatasync is the same
// call on the same descriptor at the same point of the log's writer queue: nothing durable moves.
import { getSystemErrorMap } from "node:util";
import type { Worker } from "node:worker_threads";
import { startWorkerBeside } from "../crypto/worker-start.js";
import { PrivvalError } from "./errors.js";
import {
  ANSWER_ERRNO,
  ANSWERED,
  CONTROL_SLOTS,
  PING_FD,
  REQUEST,
  REQUEST_FD,
} from "./log-sync-thread-layout.js";

interface Request {
  fd: number;
  resolve(): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  control: Int32Array;
  /** The request the thread holds, if any (one at a time). */
  out: Request | undefined;
}

type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
) => { async: false; value: "not-equal" | "timed-out" } | { async: true; value: Promise<"ok" | "timed-out"> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** The fs error the thread's errno stands for, as node's own fdatasync would have thrown it. */
function syncFailed(errno: number): PrivvalError {
  const [code, description] = getSystemErrorMap().get(errno) ?? ["EIO", "i/o error"];
  const message = `${code}: ${description}, fdatasync`;
  const cause = Object.assign(new Error(message), { code, errno });
  return new PrivvalError("PRIVVAL_STATE_WRITE_FAILED", message, { cause });
}

export interface LogSyncThreadOptions {
  /**
   * Test-only: a request for this descriptor is taken by the thread and never answered, so a test
   * can stop the thread with a sync certainly out. Never set in a node.
   */
  testHoldFd?: number;
}

export class LogSyncThread {
  private thread: Thread | undefined;
  private readonly queue: Request[] = [];

  constructor(private readonly options: LogSyncThreadOptions = {}) {}

  /**
   * Runs `fdatasync(fd)` on the thread; resolves once it returned, rejects with the fs error it
   * threw (PRIVVAL_STATE_WRITE_FAILED, its `cause` carrying the `code`), or when the thread dies
   * with it out (whether it ran is then unknown, so the log must latch). Requests run in order.
   */
  datasync(fd: number): Promise<void> {
    return this.ask(fd);
  }

  /**
   * Starts the thread now and resolves once it answers, so the first signature does not wait for
   * the thread to load (tens of ms from dist/, a second or more from the sources under tsx).
   */
  warmUp(): Promise<void> {
    return this.ask(PING_FD);
  }

  /** Stops the thread (a node shutting down); a sync out or queued rejects. */
  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    this.failAll(undefined, "stopped", true); // nothing queued may start a new thread meanwhile
    if (thread !== undefined) await thread.worker.terminate();
    this.failAll(thread, "stopped");
  }

  private ask(fd: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ fd, resolve, reject });
      const thread = this.threadNow();
      if (thread.out === undefined) this.post(thread);
    });
  }

  /** Hands the next queued request to the idle thread and waits for its answer word. */
  private post(thread: Thread): void {
    const request = this.queue.shift();
    if (request === undefined) {
      thread.worker.unref();
      return;
    }
    thread.out = request;
    thread.worker.ref(); // the process stays up while the log waits on this thread
    const { control } = thread;
    const number = (Atomics.load(control, REQUEST) + 1) | 0;
    const answeredBefore = Atomics.load(control, ANSWERED);
    Atomics.store(control, REQUEST_FD, request.fd);
    Atomics.store(control, REQUEST, number);
    Atomics.notify(control, REQUEST);
    const wait = waitAsync(control, ANSWERED, answeredBefore);
    if (wait.async) void wait.value.then(() => this.answered(thread, request, number));
    else this.answered(thread, request, number); // answered before the wait began
  }

  private answered(thread: Thread, request: Request, number: number): void {
    // A thread that died (or was replaced) had its request failed already.
    if (thread.out !== request) return;
    if (Atomics.load(thread.control, ANSWERED) !== number) {
      // Woken without this answer (not expected: only the thread notifies it): wait again.
      const wait = waitAsync(thread.control, ANSWERED, Atomics.load(thread.control, ANSWERED));
      if (wait.async) void wait.value.then(() => this.answered(thread, request, number));
      else queueMicrotask(() => this.answered(thread, request, number));
      return;
    }
    const errno = Atomics.load(thread.control, ANSWER_ERRNO);
    thread.out = undefined;
    // Settled before the next request is posted: the thread may answer that one before the wait
    // for it begins (a descriptor it refuses at once), and post() then settles it in this call,
    // which put its answer ahead of this one's.
    if (errno === 0) request.resolve();
    else request.reject(syncFailed(errno));
    this.post(thread);
  }

  private threadNow(): Thread {
    if (this.thread !== undefined) return this.thread;
    const shared = new SharedArrayBuffer(CONTROL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const worker = startWorkerBeside(import.meta.url, "log-sync-thread-worker", {
      control: shared,
      holdFd: this.options.testHoldFd,
    });
    const thread: Thread = { worker, control: new Int32Array(shared), out: undefined };
    worker.unref();
    // A thread that dies takes its request with it (whether its fdatasync ran is unknown).
    const died = (reason: string) => this.failAll(thread, reason);
    worker.on("error", (error) => died(`failed: ${error.message}`));
    worker.on("exit", (code) => died(`exited with code ${code}`));
    this.thread = thread;
    return thread;
  }

  /**
   * The thread is gone: its request fails (whether its fdatasync ran is unknown). Requests queued
   * behind it go to a new thread, unless the writer is closing (`andQueued`), when they fail too.
   */
  private failAll(thread: Thread | undefined, reason: string, andQueued = false): void {
    const error = new PrivvalError("PRIVVAL_STATE_WRITE_FAILED", `log sync thread ${reason}`);
    if (thread !== undefined) {
      if (this.thread === thread) this.thread = undefined;
      const out = thread.out;
      thread.out = undefined;
      out?.reject(error);
    }
    if (andQueued) for (const request of this.queue.splice(0)) request.reject(error);
    else if (this.queue.length > 0 && this.thread === undefined) this.post(this.threadNow());
  }
}
