// The signing handler with the node's file signer runs the consensus log's sync and the signer's
// state write side by side, yet nothing is released (and the state file is not replaced) before
// the log is durable: the signer's new state file is staged under its temporary name and renamed
// only after the sync. A failed sync stores nothing and does not stop the signer. A signer that
// cannot hold its state back (a remote one) is still asked only once the log is synced.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { Subject } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { createLogger } from "../../src/logger/index.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { type ConsensusSigner, signingHandler } from "../../streams/effects/signing.js";
import { CHAIN, freshStateFile, pair, recordingFs, vote } from "./privval-signer-fixture.js";

const silent = createLogger({ level: "none" });

/** A log sync the test finishes (or fails) by hand. */
function heldSync(log: string[]) {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const synced = new Promise<void>((resolve, reject) => {
    finish = () => {
      log.push("log synced");
      resolve();
    };
    fail = reject;
  });
  return { synced, finish, fail };
}

/** A few timer turns: long enough for a step that should NOT happen to show itself. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 2));
}

/**
 * Waits until `done()` holds (the file steps run on the thread pool, whose turn a loaded machine
 * delays past any fixed wait), failing with `what` after 5 s.
 */
async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const stateDirEntries = (path: string) => readdirSync(join(path, ".."));

function run(signer: ConsensusSigner, syncLog: () => Promise<void>) {
  const effect$ = new Subject<ConsensusEffect>();
  const inputs: ConsensusInput[] = [];
  signingHandler({ signer, chainId: CHAIN, syncLog, logger: silent })(effect$).subscribe((i) =>
    inputs.push(i),
  );
  return { effect$, inputs };
}

test("the file signer's state is staged while the log syncs, and replaced and released only after", async () => {
  const path = freshStateFile();
  const log: string[] = [];
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { fs: recordingFs(log) });
  const before = readFileSync(path, "utf8");
  const sync = heldSync(log);
  const { effect$, inputs } = run(signer, () => sync.synced);

  effect$.next({ type: "SignVote", vote: vote(5n) });
  await until("the temporary file's close", () => log.includes("close temp"));
  await settle();
  // Beside the pending sync: the temporary file is written and fsynced, nothing more.
  assert.deepEqual(log, ["open temp", "write temp", "fsync temp", "close temp"]);
  assert.equal(
    readFileSync(path, "utf8"),
    before,
    "the state file is not replaced before the log is durable",
  );
  assert.equal(inputs.length, 0, "no signature leaves before the log is durable");

  sync.finish();
  await until("the signature", () => inputs.length === 1 && log.includes("close dir"));
  assert.deepEqual(log.slice(4), ["log synced", "rename", "open dir", "fsync dir", "close dir"]);
  assert.equal(inputs.length, 1);
  assert.equal(inputs[0]!.type, "VoteSigned");
  assert.equal(JSON.parse(readFileSync(path, "utf8")).height, "5");
  assert.deepEqual(readdirSync(join(path, "..")), ["priv_validator_state.json"]);
});

test("a failed log sync stores nothing, halts with SIGNER_IO, and leaves the signer able to sign", async () => {
  const path = freshStateFile();
  const log: string[] = [];
  const signer = FileSigner.fromStateFile(pair.privateKey, path, { fs: recordingFs(log) });
  const before = readFileSync(path, "utf8");
  const sync = heldSync(log);
  const { effect$, inputs } = run(signer, () => sync.synced);

  effect$.next({ type: "SignVote", vote: vote(6n) });
  await until("the temporary file's close", () => log.includes("close temp"));
  sync.fail(new Error("EIO: the disk went away"));
  await until(
    "the refusal and the staged file's removal",
    () => inputs.length === 1 && stateDirEntries(path).length === 1,
  );
  assert.equal(readFileSync(path, "utf8"), before, "the old state stays");
  assert.deepEqual(
    readdirSync(join(path, "..")),
    ["priv_validator_state.json"],
    "the staged file is removed",
  );
  assert.ok(!log.includes("rename"));
  assert.equal(inputs.length, 1);
  const failed = inputs[0]!;
  assert.equal(failed.type, "SignFailed");
  assert.match((failed as { reason: string }).reason, /^SIGNER_IO: EIO: the disk went away/);
  assert.equal(signer.lastSignState.height, 0n);
  // Not latched: the disk holds the old state for sure, so the same vote can be signed later.
  const signed = await signer.signVote(CHAIN, vote(6n));
  assert.equal(signed.signature.length, 64);
});

test("a signer that cannot hold its state back is asked only once the log is synced", async () => {
  const log: string[] = [];
  const sync = heldSync(log);
  const remoteLike: ConsensusSigner = {
    async signVote(_chainId, v, logSynced) {
      log.push(logSynced === undefined ? "asked after the sync" : "asked with the sync pending");
      return { ...v, signature: new Uint8Array(64).fill(1) };
    },
    async signProposal() {
      throw new Error("unused");
    },
  };
  const { effect$, inputs } = run(remoteLike, () => sync.synced);
  effect$.next({ type: "SignVote", vote: vote(7n) });
  await settle();
  assert.deepEqual(log, []);
  sync.finish();
  await until("the signature", () => inputs.length === 1);
  assert.deepEqual(log, ["log synced", "asked after the sync"]);
  assert.equal(inputs[0]!.type, "VoteSigned");
});
