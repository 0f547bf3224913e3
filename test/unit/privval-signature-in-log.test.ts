// The consensus log as a signature's one durable step (Wal.syncRecording, sign-state-store.ts,
// state-from-log.ts): the signer's state goes into the log before its sync and leaves only once
// that sync resolved; the state file is written after. After a crash the file may be behind the
// log or torn; start-up takes the later of the two and rewrites the file from the log, so a
// conflicting request at the logged step is still refused.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { type TestContext, test } from "node:test";
import { PrivvalError } from "../../src/privval/errors.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import type { LogSync } from "../../src/privval/log-sync.js";
import { fileSignStateStore } from "../../src/privval/sign-state-store.js";
import { reconcileStateFileWithLog, signStateFromRecord } from "../../src/privval/state-from-log.js";
import { readPrivValidatorState } from "../../src/types/key-file-priv-validator-state.js";
import { Wal } from "../../src/wal/wal.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { CHAIN, freshStateFile, gate, pair, vote } from "./privval-signer-fixture.js";

const logDir = () => join(mkdtempSync(join(tmpdir(), "rxbft-signed-log-")), "cs.wal");
const conflicting = (height: bigint) => ({
  ...vote(height),
  blockId: {
    hash: new Uint8Array(32).fill(7),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(8) },
  },
});
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Signs a prevote at `height` through a real log, then closes signer and log (the node's order). */
async function signThroughLog(dir: string, path: string, height: bigint) {
  const wal = await Wal.open(dir);
  const signer = FileSigner.fromStateFile(pair.privateKey, path);
  const signed = await signer.signVote(CHAIN, vote(height), wal);
  await signer.close();
  await wal.close();
  return signed;
}

/** A fresh log folder and state file, both removed when test `t` ends. */
function logAndStateFile(t: TestContext): { dir: string; path: string } {
  const dir = logDir();
  const path = freshStateFile();
  t.after(() => {
    rmSync(dirname(dir), { recursive: true, force: true });
    rmSync(dirname(path), { recursive: true, force: true });
  });
  return { dir, path };
}

test("a log holding a later signature than the rolled-back state file: after restart the file is rewritten from it and a conflicting vote at that step is refused", async (t) => {
  const { dir, path } = logAndStateFile(t);
  const before = readFileSync(path, "utf8");
  const signed = await signThroughLog(dir, path, 5n);
  // A machine crash before the file's replacement reached the disk leaves the file behind.
  writeFileSync(path, before);

  const wal = await Wal.open(dir);
  t.after(() => wal.close());
  const note = reconcileStateFileWithLog(path, wal.signedAtOpen?.payload, dir);
  assert.match(note ?? "", /behind the consensus log/);
  const onDisk = readPrivValidatorState(path);
  assert.deepEqual([onDisk.height, onDisk.round, onDisk.step], [5n, 0, 2]);
  const signer = FileSigner.fromStateFile(pair.privateKey, path);
  t.after(() => signer.close());
  await assert.rejects(
    signer.signVote(CHAIN, conflicting(5n), wal),
    (e: unknown) => e instanceof PrivvalError && e.code === "PRIVVAL_CONFLICTING_DATA",
  );
  // The same vote asked again (a later timestamp) gets the logged signature back.
  const again = await signer.signVote(
    CHAIN,
    { ...vote(5n), timestamp: { seconds: 1_700_000_009n, nanos: 0 } },
    wal,
  );
  assert.deepEqual(again.signature, signed.signature);
});

test("a torn (empty) or missing state file with a signer record in the log starts from the log and is rewritten; with neither, start-up refuses", async (t) => {
  const { dir, path } = logAndStateFile(t);
  await signThroughLog(dir, path, 3n);
  for (const damage of ["empty", "missing"] as const) {
    if (damage === "empty") writeFileSync(path, "");
    else rmSync(path);
    const wal = await Wal.open(dir);
    const note = reconcileStateFileWithLog(path, wal.signedAtOpen?.payload, dir);
    await wal.close();
    assert.match(note ?? "", /could not be read/, damage);
    const state = readPrivValidatorState(path);
    assert.deepEqual([state.height, state.round, state.step], [3n, 0, 2], damage);
    assert.equal(state.signature?.length, 64, damage);
  }

  // No record in the log (a fresh one) and a torn file: refused by the file's own error, as before.
  const freshDir = logDir();
  t.after(() => rmSync(dirname(freshDir), { recursive: true, force: true }));
  const fresh = await Wal.open(freshDir);
  const none = fresh.signedAtOpen;
  assert.equal(none, undefined);
  writeFileSync(path, "");
  assert.equal(reconcileStateFileWithLog(path, undefined, freshDir), undefined);
  await fresh.close();
  assert.throws(() => FileSigner.fromStateFile(pair.privateKey, path));
});

test("no signature leaves before the recording log's sync resolves, and the state file is written only after it", async (t) => {
  const path = freshStateFile();
  t.after(() => rmSync(dirname(path), { recursive: true, force: true }));
  const before = readFileSync(path, "utf8");
  const held = gate();
  const records: Uint8Array[] = [];
  const log: LogSync = {
    syncVia: () => Promise.reject(new Error("the recording path must be taken")),
    syncRecording: async (record) => {
      records.push(record);
      await held.enter();
    },
  };
  const signer = FileSigner.fromStateFile(pair.privateKey, path);
  t.after(() => signer.close());
  let released = false;
  const signing = signer.signVote(CHAIN, vote(8n, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT), log).then((v) => {
    released = true;
    return v;
  });
  await held.reached;
  await turns(20);
  assert.equal(released, false, "the signature waited for the log's sync");
  assert.equal(readFileSync(path, "utf8"), before, "the file is not ahead of the log");
  assert.equal(records.length, 1);
  const logged = signStateFromRecord(records[0]!, "test log");
  assert.deepEqual([logged.height, logged.round, logged.step], [8n, 0, 3]);
  held.open();
  const signed = await signing;
  assert.deepEqual(logged.signature, signed.signature, "the log holds the signature that left");
  await signer.close(); // waits for the file written behind
  const state = readPrivValidatorState(path);
  assert.deepEqual([state.height, state.step], [8n, 3]);
});

test("a recording log whose sync fails releases nothing and leaves the state file as it was", async (t) => {
  const path = freshStateFile();
  t.after(() => rmSync(dirname(path), { recursive: true, force: true }));
  const before = readFileSync(path, "utf8");
  const log: LogSync = {
    syncVia: () => Promise.reject(new Error("the recording path must be taken")),
    syncRecording: () => Promise.reject(Object.assign(new Error("disk gone"), { code: "EIO" })),
  };
  const signer = FileSigner.fromStateFile(pair.privateKey, path);
  await assert.rejects(signer.signVote(CHAIN, vote(4n), log), /disk gone/);
  await signer.close();
  assert.equal(readFileSync(path, "utf8"), before);
  assert.equal(signer.lastSignState.height, 0n);
});

test("the log keeps its latest signer record across reopen and rotation, and readers of inputs skip it", async (t) => {
  const dir = logDir();
  t.after(() => rmSync(dirname(dir), { recursive: true, force: true }));
  const wal = await Wal.open(dir, { maxSegmentBytes: 1024, maxSegments: 1 });
  const datasync = () => Promise.resolve();
  wal.appendInput({ type: "A" });
  await wal.syncRecording(new TextEncoder().encode("first"), datasync);
  wal.appendInput({ type: "B" });
  await wal.syncRecording(new TextEncoder().encode("second"), datasync);
  assert.deepEqual(await wal.readAfterLastEndHeight(), [{ type: "A" }, { type: "B" }]);
  // Later heights fill segments past the limit: the one holding the record is still kept.
  for (let h = 1n; h <= 20n; h++) {
    wal.appendInput({ type: "B", pad: "x".repeat(200) });
    await wal.endHeight(h);
  }
  await wal.close();
  const reopened = await Wal.open(dir, { maxSegmentBytes: 1024, maxSegments: 1 });
  t.after(() => reopened.close());
  assert.equal(new TextDecoder().decode(reopened.signedAtOpen?.payload), "second");
});

test("behind a recording log the state file is written at most once a period, the latest state, and is current after close", async (t) => {
  const path = freshStateFile();
  t.after(() => rmSync(dirname(path), { recursive: true, force: true }));
  const log: LogSync = {
    syncVia: () => Promise.reject(new Error("the recording path must be taken")),
    syncRecording: () => Promise.resolve(),
  };
  const signer = new FileSigner(
    pair.privateKey,
    fileSignStateStore(path, { fileEveryMs: 60_000 }),
    readPrivValidatorState(path),
  );
  await signer.signVote(CHAIN, vote(1n), log);
  await signer.signVote(CHAIN, vote(2n), log);
  await signer.signVote(CHAIN, vote(3n), log);
  // The first goes out at once (its thread may take a while to start under tsx: bounded wait);
  // the later ones wait for the period's end (or the close).
  for (let i = 0; i < 100 && readPrivValidatorState(path).height === 0n; i++)
    await new Promise((resolve) => setTimeout(resolve, 50));
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(readPrivValidatorState(path).height, 1n);
  await signer.close();
  assert.equal(readPrivValidatorState(path).height, 3n);
});
