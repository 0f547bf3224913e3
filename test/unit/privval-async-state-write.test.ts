// The signer's state is written through async fs; these tests hold that write open and check that
// no signature leaves before the whole durable sequence (temp file, write, fsync, close, rename,
// directory fsync) is done, that requests queue behind it, and that a failed write stops the signer.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { test } from "node:test";
import { PrivvalError } from "../../src/privval/errors.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import type { AtomicWriteFs } from "../../src/types/key-file-atomic-write.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  type PrivValidatorState,
  privValidatorStateFileText,
  writePrivValidatorState,
  writePrivValidatorStateAsync,
} from "../../src/types/key-file-priv-validator-state.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { CHAIN, freshStateFile, gate, pair, recordingFs, vote } from "./privval-signer-fixture.js";

const isCode = (code: string, re?: RegExp) => (e: unknown) =>
  e instanceof PrivvalError && e.code === code && (re === undefined || re.test(e.message));

/** Lets every pending callback, timer and fs completion run a few times over. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Tracks whether a promise has settled, without awaiting it. */
function watch<T>(promise: Promise<T>): { readonly settled: boolean; promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(
    () => {
      state.settled = true;
    },
    () => {
      state.settled = true;
    },
  );
  return state;
}

test("the async writer writes the same text and mode as the sync one", async () => {
  const state: PrivValidatorState = {
    height: 12345n,
    round: 2,
    step: 3,
    signature: new Uint8Array(64).fill(7),
    signBytes: new Uint8Array(40).fill(0xab),
  };
  const syncPath = freshStateFile();
  const asyncPath = freshStateFile();
  writePrivValidatorState(syncPath, state);
  await writePrivValidatorStateAsync(asyncPath, state);
  assert.equal(readFileSync(asyncPath, "utf8"), privValidatorStateFileText(state));
  assert.equal(readFileSync(asyncPath, "utf8"), readFileSync(syncPath, "utf8"));
  assert.equal(statSync(asyncPath).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dirname(asyncPath)), ["priv_validator_state.json"], "no temporary file left");
});

test("the signature is returned only after the whole async write: fsync, rename and directory fsync", async () => {
  const path = freshStateFile();
  const log: string[] = [];
  const fsyncGate = gate();
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { fs: recordingFs(log, [fsyncGate]) });
  const before = readFileSync(path, "utf8");

  const signing = watch(signer.signVote(CHAIN, vote(5n)));
  await fsyncGate.reached;
  await settle();
  assert.equal(signing.settled, false, "no signature while the temporary file's fsync is pending");
  assert.equal(readFileSync(path, "utf8"), before, "the state file is not replaced before the fsync");
  assert.equal(signer.lastSignState.height, 0n);

  fsyncGate.open();
  const signed = await signing.promise;
  log.push("signature returned");
  assert.equal(signed.signature.length, 64);
  assert.deepEqual(log, [
    "open temp",
    "write temp",
    "fsync temp",
    "close temp",
    "rename",
    "open dir",
    "fsync dir",
    "close dir",
    "signature returned",
  ]);
  const file = JSON.parse(readFileSync(path, "utf8"));
  assert.equal(file.height, "5");
  assert.equal(file.step, 2);
  assert.equal(file.signature, Buffer.from(signed.signature).toString("base64"));
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dirname(path)), ["priv_validator_state.json"]);
});

test("a second request waits for the first one's async write before it is even checked", async () => {
  const path = freshStateFile();
  const log: string[] = [];
  const first = gate();
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { fs: recordingFs(log, [first]) });

  const one = watch(signer.signVote(CHAIN, vote(7n)));
  const two = watch(signer.signVote(CHAIN, vote(7n, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT)));
  await first.reached;
  await settle();
  assert.equal(one.settled, false);
  assert.equal(two.settled, false);
  assert.equal(log.filter((l) => l === "open temp").length, 1, "the second write has not started");

  first.open();
  await one.promise;
  const signedTwo = await two.promise;
  assert.equal(log.filter((l) => l === "open temp").length, 2);
  assert.equal(JSON.parse(readFileSync(path, "utf8")).step, 3);
  assert.deepEqual(signer.lastSignState.signature, signedTwo.signature);
});

test("a store whose save has not resolved holds the signature back", async () => {
  let finish!: () => void;
  let saves = 0;
  const store = {
    save() {
      saves++;
      return new Promise<void>((resolve) => {
        finish = resolve;
      });
    },
  };
  const signer = new FileSigner(pair.privateKey, store, INITIAL_PRIV_VALIDATOR_STATE);
  const signing = watch(signer.signVote(CHAIN, vote(3n)));
  await settle();
  assert.equal(saves, 1);
  assert.equal(signing.settled, false);
  finish();
  assert.equal((await signing.promise).signature.length, 64);
});

test("a failing async write rejects, leaves the old state on disk, and stops the signer", async () => {
  const path = freshStateFile();
  const log: string[] = [];
  const fsyncGate = gate();
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { fs: recordingFs(log, [fsyncGate]) });
  const before = readFileSync(path, "utf8");

  const signing = watch(signer.signVote(CHAIN, vote(9n)));
  const queued = watch(signer.signVote(CHAIN, vote(9n, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT)));
  await fsyncGate.reached;
  fsyncGate.fail(Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" }));
  await assert.rejects(signing.promise, isCode("PRIVVAL_STATE_WRITE_FAILED", /9\/0\/prevote.*EIO/));
  // The request queued behind the failed write is refused too, and nothing more is written.
  await assert.rejects(queued.promise, isCode("PRIVVAL_STATE_WRITE_FAILED"));
  await assert.rejects(signer.signVote(CHAIN, vote(100n)), isCode("PRIVVAL_STATE_WRITE_FAILED"));
  assert.equal(log.filter((l) => l === "open temp").length, 1);
  assert.ok(log.includes("rm temp"), "the temporary file is removed");
  assert.equal(readFileSync(path, "utf8"), before);
  assert.deepEqual(readdirSync(dirname(path)), ["priv_validator_state.json"]);
  assert.equal(signer.lastSignState.height, 0n);
});

test("a failing rename rejects and stops the signer", async () => {
  const path = freshStateFile();
  const real = recordingFs([]);
  const fs: AtomicWriteFs = {
    ...real,
    async rename() {
      throw Object.assign(new Error("ENOSPC: no space left on device, rename"), { code: "ENOSPC" });
    },
  };
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { fs });
  await assert.rejects(signer.signVote(CHAIN, vote(4n)), isCode("PRIVVAL_STATE_WRITE_FAILED", /ENOSPC/));
  await assert.rejects(signer.signVote(CHAIN, vote(5n)), isCode("PRIVVAL_STATE_WRITE_FAILED"));
  assert.equal(JSON.parse(readFileSync(path, "utf8")).height, "0");
  assert.deepEqual(readdirSync(dirname(path)), ["priv_validator_state.json"]);
});
