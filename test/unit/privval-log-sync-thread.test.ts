// The signer's log-sync thread (LogSyncThread): the recording log's fdatasync runs on it, asked and
// answered through shared memory. A sync resolves once its fdatasync returned; a failing one
// rejects with the fs code and names fdatasync; syncs asked together run one at a time, in order,
// each with its own outcome; a thread stopped with a sync out rejects that sync (whether it ran is
// unknown, so the log latches) and the next sync starts a new thread.
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
