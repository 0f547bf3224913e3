// The mempool reducer's folds under the load bench's steady state, timed one by one: the long turns
// of a loaded validator's mempool (docs/storage.md, twenty-fifth pass) without a node, wrk or app.
// Each height admits ADMIT fresh 100-byte txs in turns of TURN (TxsSubmitted then
// CheckTxsCompleted, as the node folds a turn's arrivals and their answers), then commits all
// but the LAG newest txs as the node does (BlockTxsCommitted pieces of UPDATE_PIECE, then BlockCommitted
// with the recheck's RunRecheck). Pool size 50,000 and cache 10,000 (the load bench's). Prints, per
// kind of fold, the count, total, p99 and longest ms over the measured heights, and the process's
// CPU per 1,000 admitted txs. Bounded: HEIGHTS heights (default 15) after 5 of warm-up.
//   node --import tsx test/bench/mempool-update-turns.ts   (MUT_ROOT=<clone> runs that clone's sources)
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import type * as MempoolModule from "../../src/mempool/index.js";
import type * as NodeModule from "../../streams/mempool-node.js";

const ROOT = process.env.MUT_ROOT ?? fileURLToPath(new URL("../..", import.meta.url));
const HEIGHTS = Number(process.env.MUT_HEIGHTS ?? 15);
const WARMUP = 5;
const ADMIT = Number(process.env.MUT_ADMIT ?? 18_000);
/** Txs admitted after the proposal's reap, still pooled when its block commits. */
const LAG = Number(process.env.MUT_LAG ?? 5_000);
const TURN = Number(process.env.MUT_TURN ?? 200);

const m: typeof MempoolModule = await import(`${ROOT}/src/mempool/index.ts`);
const { UPDATE_PIECE }: typeof NodeModule = await import(`${ROOT}/streams/mempool-node.ts`);

const config = { ...m.DEFAULT_MEMPOOL_CONFIG, size: 50_000, cacheSize: 10_000 };
let state = m.initialMempoolState(config, 1n);
let requestId = 1;
let txNumber = 0;
const times = new Map<string, number[]>();
const cpuTimes = new Map<string, number[]>();
let measuring = false;

function fold(kind: string, input: MempoolModule.MempoolInput): MempoolModule.MempoolTransition {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const t = m.mempoolReducer(state, input);
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  state = t.state;
  if (measuring) {
    if (!times.has(kind)) {
      times.set(kind, []);
      cpuTimes.set(kind, []);
    }
    times.get(kind)!.push(ms);
    cpuTimes.get(kind)!.push((used.user + used.system) / 1000);
  }
  return t;
}

function freshTurn(n: number) {
  const out: MempoolModule.TxSubmission[] = [];
  for (let i = 0; i < n; i++) {
    const tx = new Uint8Array(100);
    const label = `k${txNumber++}=`;
    for (let j = 0; j < label.length; j++) tx[j] = label.charCodeAt(j);
    const hash = createHash("sha256").update(tx).digest("hex").toUpperCase();
    out.push({ requestId: requestId++, hash, tx, from: "rpc" });
  }
  return out;
}

function admit(n: number): void {
  for (let done = 0; done < n; done += TURN) {
    const submissions = freshTurn(Math.min(TURN, n - done));
    fold("admission", { type: "TxsSubmitted", submissions, time: 0 });
    const results = submissions.map((s) => ({ ...s, code: 0, gasWanted: 0n }));
    fold("admission", { type: "CheckTxsCompleted", results, time: 0 });
  }
}

function commit(height: bigint): void {
  const hashes = [...state.txs.keys()].slice(0, Math.max(0, state.txs.size - LAG));
  const codes = hashes.map(() => 0);
  let from = 0;
  for (; hashes.length - from > UPDATE_PIECE; from += UPDATE_PIECE) {
    const to = from + UPDATE_PIECE;
    fold("commit piece", {
      type: "BlockTxsCommitted",
      height,
      txHashes: hashes.slice(from, to),
      deliverTxCodes: codes.slice(from, to),
      time: 0,
    });
  }
  const t = fold("commit last", {
    type: "BlockCommitted",
    height,
    txHashes: hashes.slice(from),
    deliverTxCodes: codes.slice(from),
    time: 0,
  });
  // Every recheck answers 0, a window at a time, as the node's in-process app does.
  for (const e of t.effects) {
    if (e.type !== "RunRecheck") continue;
    for (let at = 0; at < e.txs.length; at += 1024) {
      const results = e.txs.slice(at, at + 1024).map(({ hash }) => ({ hash, code: 0 }));
      fold("recheck", { type: "RechecksCompleted", generation: e.generation, results, time: 0 });
    }
  }
}

const cpuStart = { at: process.cpuUsage() };
for (let h = 0; h < WARMUP + HEIGHTS; h++) {
  if (h === WARMUP) {
    measuring = true;
    cpuStart.at = process.cpuUsage();
  }
  admit(ADMIT);
  commit(BigInt(h + 2));
}
const cpu = process.cpuUsage(cpuStart.at);

const q = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
for (const [kind, list] of times) {
  const cpuList = cpuTimes.get(kind)!;
  console.log(
    `${kind.padEnd(13)} ${String(list.length).padStart(6)} folds | wall total ${sum(list).toFixed(0).padStart(6)} ms ` +
      `p99 ${q(list, 0.99).toFixed(2)} max ${q(list, 1).toFixed(2)} | CPU total ${sum(cpuList).toFixed(0).padStart(6)} ms ` +
      `p99 ${q(cpuList, 0.99).toFixed(2)} max ${q(cpuList, 1).toFixed(2)} | CPU over 10 ms: ${cpuList.filter((x) => x > 10).length}`,
  );
}
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `CPU ${cpuMs.toFixed(0)} ms for ${HEIGHTS} heights (${((cpuMs / (HEIGHTS * ADMIT)) * 1000).toFixed(1)} ms per 1k txs, tx making included); pool ${state.txs.size}, cache ${state.cache.size}`,
);
