// The signer's state file written on a thread of its own (StateFileWriter): the same file text and
// mode as the blocking writer; with the log's sync held, the new state is staged under a temporary
// name and the file replaced (and the signature released) only after the sync; a failed sync
// leaves the old file and no temporary one; a failed write or a writer thread dying with a write
// out rejects and stops the signer.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { PrivvalError } from "../../src/privval/errors.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { logSyncedBy } from "../../src/privval/log-sync.js";
import { StateFileWriter } from "../../src/privval/state-file-writer.js";
import {
  type PrivValidatorState,
  privValidatorStateFileText,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { CHAIN, freshStateFile, gate, pair, vote } from "./privval-signer-fixture.js";

const writer = new StateFileWriter();
after(() => writer.close());

const signerAt = (path: string, w = writer) => FileSigner.fromStateFile(pair.privateKey, path, { writer: w });

/** Waits a few turns of the event loop and a little wall time (the writer thread runs meanwhile). */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

function watch<T>(promise: Promise<T>): { readonly settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  const mark = () => {
    state.settled = true;
  };
  promise.then(mark, mark);
  return state;
}

const temporaries = (path: string) => readdirSync(dirname(path)).filter((n) => n.endsWith(".tmp"));

/** Waits (up to 10 s) until a temporary state file is staged beside `path`. */
async function untilStaged(path: string): Promise<void> {
  for (const end = Date.now() + 10_000; temporaries(path).length === 0; ) {
    if (Date.now() > end) assert.fail("the first request was never staged");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test("the writer thread writes the same text and mode as the blocking writer, and leaves no temporary file", async () => {
  const state: PrivValidatorState = {
    height: 4242n,
    round: 1,
    step: 2,
    signature: new Uint8Array(64).fill(3),
    signBytes: new Uint8Array(30).fill(0xcd),
  };
  const threadPath = freshStateFile();
  const syncPath = freshStateFile();
  await writer.write(threadPath, privValidatorStateFileText(state), 0o600);
  writePrivValidatorState(syncPath, state);
  assert.equal(readFileSync(threadPath, "utf8"), readFileSync(syncPath, "utf8"));
  assert.equal(statSync(threadPath).mode & 0o777, 0o600);
  // Besides the file, only the spare the next write reuses (state-file-spare.ts).
  assert.deepEqual(readdirSync(dirname(threadPath)).sort(), [
    ".priv_validator_state.json.spare-a",
    "priv_validator_state.json",
  ]);
});

/** A fresh signer asked to sign a vote at `height` while the log's sync is held open. */
async function signingHeldByLogSync(height: bigint) {
  const path = freshStateFile();
  const before = readFileSync(path, "utf8");
  const signer = signerAt(path);
  const logSync = gate();
  const signing = watch(signer.signVote(CHAIN, vote(height), logSyncedBy(logSync.enter())));
  await settle();
  return { path, before, signer, logSync, signing };
}

test("with the log's sync held, the state is staged aside; the file is replaced and the signature released only after", async () => {
  const { path, before, logSync, signing } = await signingHeldByLogSync(11n);
  assert.equal(signing.settled, false, "no signature while the log's sync is pending");
  assert.equal(readFileSync(path, "utf8"), before, "the state file is not ahead of the log");
  const staged = temporaries(path);
  assert.equal(staged.length, 1, "the new state is staged under a temporary name");
  assert.equal(JSON.parse(readFileSync(join(dirname(path), staged[0]!), "utf8")).height, "11");

  logSync.open();
  const signed = await signing.promise;
  const file = JSON.parse(readFileSync(path, "utf8"));
  assert.equal(file.height, "11", "released only once the file holds the new state");
  assert.equal(file.signature, Buffer.from(signed.signature).toString("base64"));
  assert.deepEqual(temporaries(path), []);
});

test("a failed log sync leaves the old file, removes the staged one, and the signer signs on", async () => {
  const { path, before, signer, logSync, signing } = await signingHeldByLogSync(12n);
  const failure = Object.assign(new Error("EIO: log fsync"), { code: "EIO" });
  logSync.fail(failure);
  await assert.rejects(signing.promise, (e) => e === failure, "the log's own error, not the store's");
  await settle();
  assert.equal(readFileSync(path, "utf8"), before);
  assert.deepEqual(temporaries(path), [], "the staged file is removed");
  const signed = await signer.signVote(CHAIN, vote(12n));
  assert.equal(
    JSON.parse(readFileSync(path, "utf8")).signature,
    Buffer.from(signed.signature).toString("base64"),
  );
});

test("a write that fails on the thread rejects with its fs code and stops the signer", async () => {
  const path = freshStateFile();
  const signer = signerAt(path);
  rmSync(dirname(path), { recursive: true });
  await assert.rejects(
    signer.signVote(CHAIN, vote(13n)),
    (e) =>
      e instanceof PrivvalError &&
      e.code === "PRIVVAL_STATE_WRITE_FAILED" &&
      e.cause instanceof PrivvalError &&
      (e.cause.cause as NodeJS.ErrnoException).code === "ENOENT",
  );
  await assert.rejects(signer.signVote(CHAIN, vote(14n)), (e) => e instanceof PrivvalError);
});

test("the writer thread dying with a write out rejects that write and stops the signer; a new write starts a new thread", async () => {
  const own = new StateFileWriter();
  const path = freshStateFile();
  const signer = signerAt(path, own);
  const logSync = gate();
  const signing = watch(signer.signVote(CHAIN, vote(15n), logSyncedBy(logSync.enter())));
  await settle();
  await own.close(); // the thread ends while the write waits for the log
  await assert.rejects(
    signing.promise,
    (e) =>
      e instanceof PrivvalError && e.code === "PRIVVAL_STATE_WRITE_FAILED" && /thread exited/.test(e.message),
  );
  logSync.open();
  await assert.rejects(signer.signVote(CHAIN, vote(16n)), (e) => e instanceof PrivvalError);

  const other = freshStateFile();
  await own.write(other, privValidatorStateFileText({ height: 2n, round: 0, step: 3 }), 0o600);
  assert.equal(JSON.parse(readFileSync(other, "utf8")).height, "2");
  await own.close();
});

test("requests go to the thread one at a time: the second is staged only after the first is answered", async () => {
  const path = freshStateFile();
  const signer = signerAt(path);
  const logSync = gate();
  const one = watch(signer.signVote(CHAIN, vote(17n), logSyncedBy(logSync.enter())));
  const two = watch(signer.signVote(CHAIN, vote(17n, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT)));
  // The first is staged once the thread gets to it (on a loaded machine, later than settle()'s
  // 50 ms); then the second has had the same time and more to be staged, and must not be.
  await untilStaged(path);
  await settle();
  assert.equal(temporaries(path).length, 1, "only the first request is staged");
  assert.equal(two.settled, false);
  logSync.open();
  await one.promise;
  const signedTwo = await two.promise;
  assert.equal(JSON.parse(readFileSync(path, "utf8")).step, 3);
  assert.deepEqual(signer.lastSignState.signature, signedTwo.signature);
});
