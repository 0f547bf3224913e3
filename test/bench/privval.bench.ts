// Signer figures beside a same-run baseline: votes signed/s by the file signer (HRS check, sign
// bytes, ed25519 signature, durable write of priv_validator_state.json: temp file, fsync, rename,
// fsync of the directory) beside raw node:crypto ed25519 signatures of the same sign bytes with a
// cached key. The ratio is dominated by the two fsyncs per signature, which is the point: a
// signature never leaves before its state is on disk. A validator signs ~3 messages per height.
//
// The durable write is measured three ways, interleaved in the same run: the signer's store
// (thread: the StateFileWriter thread runs the steps with blocking calls, one message out and one
// answer back per signature), the same steps through node's async fs (the signer's store before
// the thread: nine thread-pool round trips, each waiting for the main thread's turn), and the
// blocking writer `init` uses (writePrivValidatorState). A fourth figure shows why the thread:
// one signature's latency while the main thread is busy in 2 ms slices (a validator's consensus
// loop under load), async fs beside the thread. Beside the rate, how the
// event loop fares while 200 votes are signed (perf_hooks.monitorEventLoopDelay, 1 ms resolution,
// max and p99; how often a concurrent 1 ms interval timer got to run; the event loop's busy time
// per vote from performance.eventLoopUtilization):
// - back to back: each vote awaited, the next asked at once (a burst of signing);
// - one per turn: a setImmediate between votes, as in the node, where other events run between
//   two signatures; the max delay is then the longest single stall one signature causes.
// Also the signer over an in-memory store, to show the cost without the disk. And one signature
// with the consensus log as the node signs it (an input appended, then the log's sync and the
// signer's state both durable before the answer), two ways in the same run: the log's fdatasync
// on node's thread pool, whose answer then posts the signer's commit (before the sixth pass), and
// the log lent to the signer's thread, which runs the fdatasync right before its rename (Wal.syncVia);
// idle and with the main thread busy in 2 ms slices, p50/p90 per signature.
// Bounded in count and time; never fails on time. Writes bench-results/privval.json.
import { sign } from "node:crypto";
import { promises as fsPromises, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { keyPairFromSeed, privateKeyObjectFromSeed } from "../../src/crypto/ed25519-keys.js";
import { FileSigner } from "../../src/privval/file-signer.js";
import { logSyncedBy } from "../../src/privval/log-sync.js";
import { memorySignStateStore } from "../../src/privval/sign-state-store.js";
import { StateFileWriter } from "../../src/privval/state-file-writer.js";
import {
  INITIAL_PRIV_VALIDATOR_STATE,
  readPrivValidatorState,
  writePrivValidatorState,
} from "../../src/types/key-file-priv-validator-state.js";
import { Wal } from "../../src/wal/wal.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BUDGET_MS = 1500;
const MAX_VOTES = 5000;
const LOOP_VOTES = 200;
const CHAIN = "bench-chain";
const pair = keyPairFromSeed(new Uint8Array(32).fill(5));
const fill = (n: number, v: number) => new Uint8Array(n).fill(v);

/** The i-th vote of a validator moving forward: prevote and precommit per height. */
const voteAt = (i: number): Vote => ({
  type: i % 2 === 0 ? SignedMsgType.SIGNED_MSG_TYPE_PREVOTE : SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
  height: 1n + BigInt(i >> 1),
  round: 0,
  blockId: { hash: fill(32, i & 0xff), partSetHeader: { total: 1, hash: fill(32, 2) } },
  timestamp: { seconds: 1_700_000_000n + BigInt(i), nanos: 0 },
  validatorAddress: fill(20, 3),
  validatorIndex: 0,
  signature: new Uint8Array(0),
});

async function rate(signOne: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const start = performance.now();
  let i = 0;
  while (i < MAX_VOTES && performance.now() - start < BUDGET_MS) await signOne(i++);
  return (i / (performance.now() - start)) * 1000;
}

const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface LoopFigures {
  maxDelayMs: number;
  p99DelayMs: number;
  /** Ticks of a concurrent 1 ms interval timer (a stand-in for RPC and gossip work) meanwhile. */
  timerTicks: number;
  /** Time the event loop was busy (performance.eventLoopUtilization), per vote. */
  loopBusyMsPerVote: number;
  votesPerSecond: number;
}

/** Signs LOOP_VOTES votes while the event loop delay is monitored and a 1 ms timer ticks. */
async function eventLoop(signer: FileSigner, perTurn: boolean): Promise<LoopFigures> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  let ticks = 0;
  histogram.enable();
  // The monitor records from its first tick on: let it tick before the signing starts.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const ticker = setInterval(() => ticks++, 1);
  const utilization = performance.eventLoopUtilization();
  const start = performance.now();
  for (let i = 0; i < LOOP_VOTES; i++) {
    await signer.signVote(CHAIN, voteAt(i));
    if (perTurn) await yieldTurn();
  }
  const elapsed = performance.now() - start;
  const busy = performance.eventLoopUtilization(utilization).active;
  // Let the monitor's timer fire once more, so a stall at the very end is recorded too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearInterval(ticker);
  histogram.disable();
  return {
    maxDelayMs: +(histogram.max / 1e6).toFixed(1),
    p99DelayMs: +(histogram.percentile(99) / 1e6).toFixed(1),
    timerTicks: ticks,
    loopBusyMsPerVote: +(busy / LOOP_VOTES).toFixed(3),
    votesPerSecond: Math.round((LOOP_VOTES / elapsed) * 1000),
  };
}

type Mode = "thread" | "async" | "sync";

const BUSY_VOTES = 100;
const BUSY_SLICE_MS = 2;

/**
 * Per-signature latency (p50, p90 in ms) of BUSY_VOTES votes while the main thread is kept busy
 * in BUSY_SLICE_MS slices of work, one per turn of the event loop.
 */
async function latencyWhileBusy(signer: FileSigner): Promise<{ p50: number; p90: number }> {
  let busy = true;
  const spin = () => {
    if (!busy) return;
    const until = performance.now() + BUSY_SLICE_MS;
    while (performance.now() < until) {}
    setImmediate(spin);
  };
  setImmediate(spin);
  const times: number[] = [];
  for (let i = 0; i < BUSY_VOTES; i++) {
    const start = performance.now();
    await signer.signVote(CHAIN, voteAt(i));
    times.push(performance.now() - start);
  }
  busy = false;
  times.sort((a, b) => a - b);
  const at = (q: number) => +times[Math.floor(q * (times.length - 1))]!.toFixed(2);
  return { p50: at(0.5), p90: at(0.9) };
}

/**
 * Per-signature latency (p50, p90 in ms) of BUSY_VOTES votes signed as the node signs them, with a
 * consensus log in `dir`: `lent` hands the log to the signer (one answer from its thread), else
 * the log syncs on node's thread pool beside the signer, whose rename waits for that sync.
 */
async function latencyWithLog(
  signer: FileSigner,
  logDir: string,
  lent: boolean,
  busyMainThread: boolean,
): Promise<{ p50: number; p90: number }> {
  const wal = await Wal.open(logDir);
  let busy = busyMainThread;
  const spin = () => {
    if (!busy) return;
    const until = performance.now() + BUSY_SLICE_MS;
    while (performance.now() < until) {}
    setImmediate(spin);
  };
  if (busy) setImmediate(spin);
  const times: number[] = [];
  try {
    for (let i = 0; i < BUSY_VOTES; i++) {
      const vote = voteAt(i);
      const start = performance.now();
      wal.appendInput({ type: "TimeoutElapsed", height: vote.height, round: 0, step: vote.type });
      if (lent) await signer.signVote(CHAIN, vote, wal);
      else {
        const synced = wal.syncBeforeSigning();
        await Promise.all([synced, signer.signVote(CHAIN, vote, logSyncedBy(synced))]);
      }
      times.push(performance.now() - start);
    }
  } finally {
    busy = false;
    await wal.close();
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => +times[Math.floor(q * (times.length - 1))]!.toFixed(2);
  return { p50: at(0.5), p90: at(0.9) };
}

const writer = new StateFileWriter();

/** A file signer over a fresh state file, its state written as `mode` says (see the header). */
function fileSigner(dir: string, mode: Mode): FileSigner {
  const statePath = join(mkdtempSync(join(dir, `${mode}-`)), "priv_validator_state.json");
  writePrivValidatorState(statePath, INITIAL_PRIV_VALIDATOR_STATE);
  if (mode === "thread") return FileSigner.fromStateFile(pair.privateKey, statePath, { writer });
  if (mode === "async") return FileSigner.fromStateFile(pair.privateKey, statePath, { fs: fsPromises });
  const blocking = {
    save: (next: typeof INITIAL_PRIV_VALIDATOR_STATE) => writePrivValidatorState(statePath, next),
  };
  return new FileSigner(pair.privateKey, blocking, readPrivValidatorState(statePath));
}

const dir = mkdtempSync(join(tmpdir(), "rxbft-privval-bench-"));
try {
  // Interleaved, three times each, so drift in the disk's speed hits both alike.
  const durable: Record<Mode, number[]> = { sync: [], async: [], thread: [] };
  const modes = ["sync", "async", "thread"] as const;
  for (const mode of [...modes, ...modes, ...modes]) {
    const signer = fileSigner(dir, mode);
    durable[mode].push(Math.round(await rate((i) => signer.signVote(CHAIN, voteAt(i)))));
  }

  const loop: Record<string, LoopFigures> = {};
  for (const perTurn of [false, true]) {
    for (const mode of modes) {
      loop[`${mode}${perTurn ? "OnePerTurn" : "BackToBack"}`] = await eventLoop(
        fileSigner(dir, mode),
        perTurn,
      );
    }
  }

  const whileBusy: Record<string, { p50: number; p90: number }[]> = { async: [], thread: [] };
  for (const mode of ["async", "thread", "async", "thread"] as const) {
    whileBusy[mode]!.push(await latencyWhileBusy(fileSigner(dir, mode)));
  }

  const withLog: Record<string, { p50: number; p90: number }[]> = {
    poolSyncIdle: [],
    lentIdle: [],
    poolSyncBusy: [],
    lentBusy: [],
  };
  for (let round = 0; round < 3; round++) {
    for (const busyMain of [false, true]) {
      for (const lent of [false, true]) {
        const name = `${lent ? "lent" : "poolSync"}${busyMain ? "Busy" : "Idle"}`;
        const logDir = mkdtempSync(join(dir, `log-${name}-`));
        withLog[name]!.push(await latencyWithLog(fileSigner(dir, "thread"), logDir, lent, busyMain));
      }
    }
  }

  const store = memorySignStateStore();
  const memorySigner = new FileSigner(pair.privateKey, store, store.state);
  const inMemory = await rate((i) => memorySigner.signVote(CHAIN, voteAt(i)));

  const key = privateKeyObjectFromSeed(pair.privateKey.subarray(0, 32));
  const signBytes = Array.from({ length: 512 }, (_, i) => voteSignBytes(CHAIN, voteAt(i)));
  const raw = await rate((i) => sign(null, signBytes[i % signBytes.length]!, key));

  const best = (xs: number[]) => Math.max(...xs);
  const results = {
    votesSignedPerSecondDurable: best(durable.thread),
    votesSignedPerSecondDurableRuns: durable.thread,
    votesSignedPerSecondDurableAsyncFsRuns: durable.async,
    votesSignedPerSecondDurableBlockingWriteRuns: durable.sync,
    signatureMsWhileMainThreadBusy: whileBusy,
    signatureWithConsensusLogMs: withLog,
    votesSignedPerSecondInMemoryState: Math.round(inMemory),
    rawNodeCryptoSignPerSecond: Math.round(raw),
    durableRatio: +(best(durable.thread) / raw).toFixed(4),
    inMemoryRatio: +(inMemory / raw).toFixed(3),
    eventLoopWhileSigning200Votes: loop,
  };
  console.log(
    `file signer, durable state (writer thread): ${durable.thread.join(" / ")} votes/s; async fs: ${durable.async.join(" / ")} votes/s; blocking write (as init): ${durable.sync.join(" / ")} votes/s; raw node:crypto sign ${results.rawNodeCryptoSignPerSecond}/s (ratio ${results.durableRatio}; two fsyncs per vote dominate)`,
  );
  for (const [name, f] of Object.entries(loop)) {
    console.log(
      `event loop, ${LOOP_VOTES} votes ${name}: max delay ${f.maxDelayMs} ms, p99 ${f.p99DelayMs} ms, ${f.timerTicks} ticks of a 1 ms timer, loop busy ${f.loopBusyMsPerVote} ms/vote, ${f.votesPerSecond} votes/s`,
    );
  }
  for (const [mode, runs] of Object.entries(whileBusy)) {
    console.log(
      `one signature while the main thread is busy in ${BUSY_SLICE_MS} ms slices, ${mode}: ${runs.map((r) => `p50 ${r.p50} / p90 ${r.p90} ms`).join("; ")}`,
    );
  }
  for (const [name, runs] of Object.entries(withLog)) {
    console.log(
      `one signature with the consensus log's sync, ${name}: ${runs.map((r) => `p50 ${r.p50} / p90 ${r.p90} ms`).join("; ")}`,
    );
  }
  console.log(
    `file signer, in-memory state: ${results.votesSignedPerSecondInMemoryState} votes/s vs raw sign (ratio ${results.inMemoryRatio}; sign bytes + HRS check + signature)`,
  );
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "privval.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  await writer.close();
  rmSync(dir, { recursive: true, force: true });
}
