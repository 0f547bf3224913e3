// The signer's state-file thread runs the consensus log's fdatasync itself, while the staged state's
// fsync runs on the pool, and renames only once both are done (Wal.syncVia, LogSync); it answers
// once for both. The crash order must hold: the log durable before the rename, both before the
// signature leaves. A failed fdatasync latches the log, leaves
// the state file as it was and releases nothing; a thread dying while it holds the log's sync
// rejects the signature, stops the signer and latches the log.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { Subject } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { createLogger } from "../../src/logger/index.js";
import { PrivvalError } from "../../src/privval/errors.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import type { LogSync } from "../../src/privval/log-sync.js";
import { StateFileWriter, type StateFileWriterOptions } from "../../src/privval/state-file-writer.js";
import { privValidatorStateFileText } from "../../src/types/key-file-priv-validator-state.js";
import { Wal } from "../../src/wal/wal.js";
import { signingHandler } from "../../streams/effects/signing.js";
import { CHAIN, freshStateFile, pair, vote } from "./privval-signer-fixture.js";

const silent = createLogger({ level: "none" });
/** No process has this descriptor open: fdatasync on it fails with EBADF, as a failing disk would fail it. */
const BAD_FD = 2 ** 30;

const logDir = () => join(mkdtempSync(join(tmpdir(), "rxbft-lent-sync-")), "cs.wal");
const temporaries = (path: string) => readdirSync(dirname(path)).filter((n) => n.endsWith(".tmp"));
const walBytes = (dir: string) =>
  readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/** A fresh log, state file (and its text before), and a file signer writing through its own thread. */
async function lentLogSetup(options: StateFileWriterOptions = {}) {
  const dir = logDir();
  const wal = await Wal.open(dir);
  const writer = new StateFileWriter(options);
  const path = freshStateFile();
  const before = readFileSync(path, "utf8");
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { writer });
  return { dir, wal, writer, path, before, signer };
}

/** The node's signing handler over `signer`, the log lent through `log`. */
function run(signer: FileSigner, wal: Wal, log: LogSync) {
  const effect$ = new Subject<ConsensusEffect>();
  const inputs: ConsensusInput[] = [];
  let ownSyncs = 0;
  const done = new Promise<void>((resolve) =>
    signingHandler({
      signer,
      chainId: CHAIN,
      syncLog: () => {
        ownSyncs++;
        return wal.syncBeforeSigning();
      },
      log,
      logger: silent,
    })(effect$).subscribe({ next: (i) => inputs.push(i), complete: resolve }),
  );
  return { effect$, inputs, done, ownSyncs: () => ownSyncs };
}

/** Signs a height-6 vote through the handler while the lent fdatasync fails; the signer's answers. */
async function signWithFailingSync(options: StateFileWriterOptions = {}) {
  const setup = await lentLogSetup(options);
  // The log's own queue and latch, with a descriptor whose fdatasync fails on the thread.
  const log: LogSync = { syncVia: (datasync) => setup.wal.syncVia(() => datasync(BAD_FD)) };
  const { effect$, inputs, done } = run(setup.signer, setup.wal, log);
  setup.wal.appendInput({ type: "TimeoutElapsed", height: 6n });
  effect$.next({ type: "SignVote", vote: vote(6n) });
  effect$.complete();
  await done;
  return { ...setup, inputs };
}

test("the thread runs the log's fdatasync on the log's descriptor before its rename, and one answer releases the signature", {
  timeout: 30_000,
}, async () => {
  const { dir, wal, writer, path, signer } = await lentLogSetup();
  const seen: string[] = [];
  const log: LogSync = {
    syncVia: (datasync) =>
      wal.syncVia(async (fd) => {
        seen.push(`records written: ${walBytes(dir) > 0}`);
        await datasync(fd);
        // One answer for both: when the log's sync is answered the state file is replaced too.
        seen.push(`synced, state height ${JSON.parse(readFileSync(path, "utf8")).height}`);
      }),
  };
  const { effect$, inputs, done, ownSyncs } = run(signer, wal, log);
  wal.appendInput({ type: "TimeoutElapsed", height: 5n });
  effect$.next({ type: "SignVote", vote: vote(5n) });
  effect$.complete();
  await done;
  assert.deepEqual(seen, ["records written: true", "synced, state height 5"]);
  assert.equal(inputs.length, 1);
  assert.equal(inputs[0]!.type, "VoteSigned");
  assert.equal(ownSyncs(), 0, "the signer synced the log; the handler did not sync it again");
  assert.deepEqual(temporaries(path), []);
  await wal.sync(); // the log is healthy
  await wal.close();
  await writer.close();
});

test("a failed fdatasync latches the log, leaves the state file as it was (no rename), and no signature leaves", {
  timeout: 30_000,
}, async () => {
  const { wal, writer, path, before, signer, inputs } = await signWithFailingSync();
  assert.deepEqual(
    inputs.map((i) => i.type),
    ["SignFailed"],
    "the signature never leaves",
  );
  // The log's own failure (restart-fold: transient), not the state store's.
  assert.match((inputs[0] as { reason: string }).reason, /^SIGNER_IO: consensus log .*fdatasync/);
  assert.equal(readFileSync(path, "utf8"), before, "the state file is not renamed over");
  assert.deepEqual(temporaries(path), [], "the staged state is removed");
  await assert.rejects(
    wal.sync(),
    (e: Error & { code?: string }) => e.code === "WAL_IO",
    "the log is latched",
  );
  assert.throws(() => wal.appendInput({ type: "TimeoutElapsed", height: 6n }));
  // The signer is not stopped: its file holds the old state for sure.
  const signed = await signer.signVote(CHAIN, vote(6n));
  assert.equal(
    JSON.parse(readFileSync(path, "utf8")).signature,
    Buffer.from(signed.signature).toString("base64"),
  );
  await wal.close();
  await writer.close();
});

test("the log's fdatasync does not wait for the stage: with the stage unfinished, its failure still comes back and nothing is renamed", {
  timeout: 30_000,
}, async () => {
  // Serially (stage, then fdatasync, on one thread) a stage that never finishes would hold the
  // fdatasync back for ever; overlapped, the fdatasync runs at once.
  const { wal, writer, path, before, inputs } = await signWithFailingSync({ testHoldStages: true });
  assert.deepEqual(
    inputs.map((i) => i.type),
    ["SignFailed"],
  );
  assert.match((inputs[0] as { reason: string }).reason, /^SIGNER_IO: consensus log .*fdatasync/);
  assert.equal(readFileSync(path, "utf8"), before, "no rename");
  await assert.rejects(wal.sync(), (e: Error & { code?: string }) => e.code === "WAL_IO");
  await wal.close();
  await writer.close();
});

test("a thread that dies holding the log's sync rejects the signature, stops the signer and latches the log", {
  timeout: 30_000,
}, async () => {
  // The stage never finishes (test-only hold), so the rename, which waits for it and for the log's
  // fdatasync, cannot have run when the thread is stopped, however fast the disk.
  const { wal, writer, path, before, signer } = await lentLogSetup({ testHoldStages: true });
  let lent!: () => void;
  const lentNow = new Promise<void>((resolve) => {
    lent = resolve;
  });
  const log: LogSync = {
    syncVia: (datasync) =>
      wal.syncVia((fd) => {
        const answered = datasync(fd);
        lent();
        return answered;
      }),
  };
  const signing = signer.signVote(CHAIN, vote(7n), log);
  signing.catch(() => {});
  await lentNow;
  let settled = false;
  signing.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(settled, false, "the rename, and so the answer, waits for the stage");
  await writer.close();
  await assert.rejects(
    signing,
    (e) => e instanceof PrivvalError && e.code === "PRIVVAL_STATE_WRITE_FAILED" && /thread/.test(e.message),
  );
  await assert.rejects(
    wal.sync(),
    (e: Error & { code?: string }) => e.code === "WAL_IO",
    "the log is latched",
  );
  assert.equal(readFileSync(path, "utf8"), before, "the thread ended before our rename");
  await assert.rejects(
    signer.signVote(CHAIN, vote(8n)),
    (e) => e instanceof PrivvalError,
    "the signer is stopped",
  );
  await wal.close();
  await writer.close();
});

test("a thread that died before the log lent it the sync fails the signature, but the log syncs on the pool and stays healthy", {
  timeout: 30_000,
}, async () => {
  const { wal, writer, path, before, signer } = await lentLogSetup();
  // The log lends its sync only once the signer's thread is stopped (a node shutting down stops
  // the signer before it closes the log).
  let stopped!: () => void;
  const threadStopped = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  const log: LogSync = {
    syncVia: (datasync) => threadStopped.then(() => wal.syncVia(datasync)),
  };
  const signing = signer.signVote(CHAIN, vote(9n), log);
  signing.catch(() => {});
  await writer.close();
  stopped();
  await assert.rejects(signing, (e) => e instanceof PrivvalError && /thread/.test(e.message));
  await wal.sync(); // not latched: no thread ran (or failed) the log's fdatasync
  assert.equal(readFileSync(path, "utf8"), before);
  await wal.close();
});

test("a signature repeated from the state file does not sync the log through the signer: the handler syncs it", {
  timeout: 30_000,
}, async () => {
  const { wal, writer, path, signer } = await lentLogSetup();
  let lends = 0;
  const log: LogSync = {
    syncVia: (datasync) => {
      lends++;
      return wal.syncVia(datasync);
    },
  };
  const { effect$, inputs, done, ownSyncs } = run(signer, wal, log);
  effect$.next({ type: "SignVote", vote: vote(9n) });
  // The same vote with a later time: answered from the stored signature, no new state.
  effect$.next({ type: "SignVote", vote: { ...vote(9n), timestamp: { seconds: 1_700_000_001n, nanos: 0 } } });
  effect$.complete();
  await done;
  assert.deepEqual(
    inputs.map((i) => i.type),
    ["VoteSigned", "VoteSigned"],
  );
  assert.equal(lends, 1);
  assert.equal(ownSyncs(), 1, "the repeated signature waited for the handler's own sync");
  await wal.close();
  await writer.close();
  assert.equal(
    readFileSync(path, "utf8"),
    privValidatorStateFileText(signer.lastSignState),
    "the file holds the first signature's state, which the repeat did not change",
  );
});

test("renames of one state file keep the order of their writes, even when a later stage's fsync finishes first", {
  timeout: 30_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "state-file-order-"));
  try {
    const path = join(dir, "priv_validator_state.json");
    writeFileSync(path, "old");
    // the first write's stage never finishes; the second's does at once
    const writer = new StateFileWriter({ testHoldStages: (content) => content === "first" });
    await writer.warmUp(); // from the sources the thread takes a second or more to load
    const first = writer.write(path, "first", 0o600);
    first.catch(() => {});
    let secondDone = false;
    const second = writer.write(path, "second", 0o600);
    second.then(
      () => (secondDone = true),
      () => {},
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(secondDone, false, "the second rename waits for the first");
    assert.equal(readFileSync(path, "utf8"), "old", "no newer state renamed ahead of an older one");
    await writer.close();
    await assert.rejects(first);
    await assert.rejects(second);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a stage whose fsync fails while the log's fdatasync succeeds: the write fails naming the staged file, the log stays healthy, nothing is renamed", {
  timeout: 30_000,
}, async () => {
  // The thread answers such a write twice (the stage's failure, then "nothing staged" with the
  // log's sync done); the first settles the write, the second only the lent sync.
  const { wal, writer, path, before, signer } = await lentLogSetup({ testFailStages: () => true });
  const log: LogSync = { syncVia: (datasync) => wal.syncVia(datasync) };
  const { effect$, inputs, done } = run(signer, wal, log);
  wal.appendInput({ type: "TimeoutElapsed", height: 6n });
  effect$.next({ type: "SignVote", vote: vote(6n) });
  effect$.complete();
  await done;
  assert.deepEqual(
    inputs.map((i) => i.type),
    ["SignFailed"],
    "the signature never leaves",
  );
  assert.match((inputs[0] as { reason: string }).reason, /\.tmp: .*EBADF/, "the staged file is named");
  assert.equal(readFileSync(path, "utf8"), before, "the state file is not renamed over");
  assert.deepEqual(temporaries(path), [], "the staged state is removed");
  await wal.sync(); // the log's own sync succeeded: not latched
  wal.appendInput({ type: "TimeoutElapsed", height: 6n });
  await wal.sync();
  await wal.close();
  await writer.close();
});
