// A signature's state written over the spare (src/privval/state-file-worker.ts) is synced on the
// writer's own thread, not on node's thread pool: in a node the pool also carries the stores'
// synced batches and the block files, and a stage queued behind them held the signature back.
// Here every pool thread is kept busy by key derivations that run for seconds; the write over the
// spare must still finish long before the first of them does.
import assert from "node:assert/strict";
import { pbkdf2 } from "node:crypto";
import { readFileSync } from "node:fs";
import { after, test } from "node:test";
import { StateFileWriter } from "../../src/privval/state-file-writer.js";
import {
  type PrivValidatorState,
  privValidatorStateFileText,
} from "../../src/types/key-file-priv-validator-state.js";
import { freshStateFile } from "./privval-signer-fixture.js";

const state = (height: bigint): PrivValidatorState => ({
  height,
  round: 0,
  step: 2,
  signature: new Uint8Array(64).fill(7),
  signBytes: new Uint8Array(30).fill(0xcd),
});
const text = (height: bigint) => privValidatorStateFileText(state(height));

const writer = new StateFileWriter();
after(() => writer.close());

/** Occupies each of the pool's threads (UV_THREADPOOL_SIZE, 4 by default) for seconds. */
function occupyPool(): Promise<number> {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  const started = performance.now();
  const busy = Array.from(
    { length: threads },
    () =>
      new Promise<void>((resolve, reject) =>
        pbkdf2("pool", "busy", 3_000_000, 64, "sha512", (error) => (error ? reject(error) : resolve())),
      ),
  );
  return Promise.race(busy).then(() => performance.now() - started);
}

test("a write over the spare finishes while every pool thread is busy", async () => {
  const path = freshStateFile();
  await writer.write(path, text(1n), 0o600); // a fresh file: the spare exists after it
  await writer.write(path, text(2n), 0o600); // thread and spare warm
  let poolFreeAfter: number | undefined;
  const poolFree = occupyPool().then((ms) => {
    poolFreeAfter = ms;
  });
  const started = performance.now();
  await writer.write(path, text(3n), 0o600);
  const wrote = performance.now() - started;
  assert.equal(poolFreeAfter, undefined, `the write (${wrote.toFixed(1)} ms) waited for the pool`);
  assert.equal(readFileSync(path, "utf8"), text(3n));
  await poolFree;
});
