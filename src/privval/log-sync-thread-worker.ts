// The body of the signer's log-sync thread (log-sync-thread.ts). It sleeps in `Atomics.wait` on a
// shared word until the main thread posts a request there, runs the log's fdatasync with a
// blocking call, writes the outcome beside it and wakes the main thread's `Atomics.waitAsync`.
// No MessagePort carries a request or an answer, so neither event loop runs its message machinery
// (structured clone, a 'message' event) for the three syncs a height makes. This thread never
// returns to its event loop: it is stopped by `terminate()` (which interrupts the wait) or by the
// process's exit; a sync under way finishes first.
import { fdatasyncSync } from "node:fs";
import { workerData } from "node:worker_threads";
import { ANSWER_ERRNO, ANSWERED, PING_FD, REQUEST, REQUEST_FD } from "./log-sync-thread-layout.js";

const data = workerData as { control: SharedArrayBuffer; holdFd?: number };
const control = new Int32Array(data.control);

/** EIO, node's errno for an error that carries none. */
const EIO = -5;

// The buffer starts zeroed and requests are numbered from 1: a request posted while this thread
// was still loading is already there at the first look, so the first wait returns at once.
let seen = 0;
for (;;) {
  // Sleeps while no request newer than `seen` was posted; a notify without one just loops.
  Atomics.wait(control, REQUEST, seen);
  const request = Atomics.load(control, REQUEST);
  if (request === seen) continue;
  seen = request;
  const fd = Atomics.load(control, REQUEST_FD);
  // Test-only (LogSyncThreadOptions.testHoldFd): taken and never answered, until terminate().
  if (fd === data.holdFd) for (;;) Atomics.wait(control, ANSWER_ERRNO, Atomics.load(control, ANSWER_ERRNO));
  let errno = 0;
  if (fd !== PING_FD) {
    try {
      fdatasyncSync(fd);
    } catch (error) {
      const e = error as NodeJS.ErrnoException;
      errno = typeof e.errno === "number" && e.errno < 0 ? e.errno : EIO;
    }
  }
  Atomics.store(control, ANSWER_ERRNO, errno);
  // The answer's sequence is stored last: once the main thread sees it, the errno is in place.
  Atomics.store(control, ANSWERED, request);
  Atomics.notify(control, ANSWERED);
}
