// The signer's log-sync thread (LogSyncThread): the recording log's fdatasync runs on it, asked and
// answered through shared memory. A sync resolves once its fdatasync returned; a failing one
// rejects with the fs code and names fdatasync; syncs asked together run one at a time, in order,
// each with its own outcome; a thread stopped with a sync out rejects that sync (whether it ran is
// unknown, so the log latches) and the next sync starts a new thread. A warm thread's answer is
// taken in place, in the asking turn; one slower than `answerWaitMs` leaves the turn to go on.
import assert from "node:assert/strict";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { PrivvalError } from "../../src/privval/errors.js";
import { LogSyncThread } from "../../src/privval/log-sync-thread.js";

/** No process has this descriptor open: fdatasync on it fails with EBADF, as a failing disk would. */
const BAD_FD = 2 ** 30;
/** A descriptor the held thread takes and never answers (LogSyncThreadOptions.testHoldFd). */
const HELD_FD = 2 ** 30 + 1;

const dir = mkdtempSync(join(tmpdir(), "rxbft-log-sync-thread-"));
const fd = openSync(join(dir, "log"), "w");
writeSync(fd, "a record");
after(() => {
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
});

const failedWithFsCode = (code: string) => (e: unknown) =>
  e instanceof PrivvalError &&
  e.code === "PRIVVAL_STATE_WRITE_FAILED" &&
  (e.cause as { code?: string } | undefined)?.code === code &&
  /fdatasync/.test(e.message);

test("a sync on an open descriptor resolves; one the disk refuses rejects with its fs code, naming fdatasync", async () => {
  const thread = new LogSyncThread();
  try {
    await thread.warmUp();
    await thread.datasync(fd);
    await assert.rejects(thread.datasync(BAD_FD), failedWithFsCode("EBADF"));
    await thread.datasync(fd); // a failure does not stop the thread
  } finally {
    await thread.close();
  }
});

test("syncs asked together run one at a time, in order, each answered with its own outcome", async () => {
  const thread = new LogSyncThread();
  try {
    const order: string[] = [];
    const ask = (name: string, on: number) =>
      thread.datasync(on).then(
        () => order.push(`${name} ok`),
        (e: unknown) => order.push(`${name} ${(e as PrivvalError).cause ? "EBADF" : "other"}`),
      );
    await Promise.all([ask("a", fd), ask("b", BAD_FD), ask("c", fd), ask("d", BAD_FD), ask("e", fd)]);
    assert.deepEqual(order, ["a ok", "b EBADF", "c ok", "d EBADF", "e ok"]);
  } finally {
    await thread.close();
  }
});

test("a thread stopped with a sync out rejects it and the syncs queued behind it; the next sync starts a new thread", async () => {
  const thread = new LogSyncThread({ testHoldFd: HELD_FD });
  await thread.warmUp();
  const outcome = (p: Promise<void>) =>
    p.then(
      () => "resolved",
      (e: unknown) => e,
    );
  let heldSettled = false;
  const held = outcome(thread.datasync(HELD_FD)).finally(() => {
    heldSettled = true;
  });
  const queued = outcome(thread.datasync(fd));
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(heldSettled, false, "the held sync is still out");
  await thread.close();
  for (const e of [await held, await queued])
    assert.ok(
      e instanceof PrivvalError &&
        e.code === "PRIVVAL_STATE_WRITE_FAILED" &&
        /log sync thread/.test(e.message),
      `rejected by the thread's stop, got ${String(e)}`,
    );
  await thread.datasync(fd);
  await thread.close();
});

test("a warm thread's answer is taken in the turn that asked: before a callback queued ahead of it", async () => {
  const thread = new LogSyncThread();
  try {
    await thread.warmUp();
    for (let i = 0; i < 5; i++) {
      let later = false;
      setImmediate(() => {
        later = true;
      });
      await thread.datasync(fd);
      assert.equal(later, false, `sync ${i}: answered in its own turn, before the queued immediate`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await thread.close();
  }
});

test("an answer slower than answerWaitMs leaves the turn to go on, and still settles the sync", async () => {
  const thread = new LogSyncThread({ testHoldFd: HELD_FD, answerWaitMs: 20 });
  await thread.warmUp();
  const startedAt = performance.now();
  let settled = false;
  const held = thread.datasync(HELD_FD).then(
    () => "resolved",
    (e: unknown) => e,
  );
  void held.finally(() => {
    settled = true;
  });
  // The asking turn blocked at most the bound, then went on without the answer.
  const turnMs = performance.now() - startedAt;
  assert.ok(turnMs < 1000, `the asking turn went on after ${turnMs.toFixed(0)} ms`);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false, "the held sync is still out");
  await thread.close();
  assert.ok((await held) instanceof PrivvalError, "rejected by the thread's stop");
});

test("answerWaitMs must be a number of ms ≥ 0", () => {
  assert.throws(() => new LogSyncThread({ answerWaitMs: -1 }), /answerWaitMs/);
  assert.throws(() => new LogSyncThread({ answerWaitMs: Number.NaN }), /answerWaitMs/);
});
