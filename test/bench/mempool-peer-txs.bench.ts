// Peers' txs into the node's mempool loop (CheckTx on the in-process kvstore), as the mempool
// reactor submits them: through submitPeerTx (one answer function for every tx) beside the
// promise per tx it used before (submitHashed(...).then(...), a waiter and a result object per
// tx), in the same run. Each round submits fresh txs CHUNK at a time, one chunk per event-loop
// turn as peers' messages arrive, and waits for every answer. Figures: txs/s and heap bytes
// allocated per tx (V8's sampling heap profiler, collected objects included). Rounds alternate;
// medians. Bounded in count and time; never fails on time. Writes
// bench-results/mempool-peer-txs.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PeerTxAnswered } from "../../streams/mempool-node.js";
import { freshKvstoreTxs, kvstoreMempoolNode } from "./kvstore-mempool-node.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 5;
const BATCH = 5000;
const CHUNK = 50;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const freshTxs = freshKvstoreTxs();
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const { mempool, close } = await kvstoreMempoolNode("mempool-peer-txs", (2 * ROUNDS + 2) * BATCH);

const session = new Session();
session.connect();
const post = <T>(method: string, params: object = {}) =>
  new Promise<T>((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  );
await post("HeapProfiler.enable");

interface SamplingProfile {
  samples: { size: number }[];
}

/** Runs `round` with the sampling heap profiler on; bytes allocated (estimated from samples). */
async function sampled(round: () => Promise<number>): Promise<{ txsPerSecond: number; bytes: number }> {
  await post("HeapProfiler.startSampling", {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const txsPerSecond = await round();
  const { profile } = await post<{ profile: SamplingProfile }>("HeapProfiler.stopSampling");
  // Each sample stands for about samplingInterval bytes of allocation (V8 samples by bytes).
  const bytes = profile.samples.length * 1024;
  return { txsPerSecond, bytes };
}

let answered = 0;
let added = 0;
const peerAnswered: PeerTxAnswered = (_from, _hash, outcome) => {
  answered++;
  if (outcome.kind === "added") added++;
};

/** Submits a round of fresh peer txs, CHUNK per turn, through `submit`; txs/s until all answered. */
async function round(submit: (tx: Uint8Array) => void): Promise<number> {
  const txs = freshTxs(BATCH);
  answered = 0;
  added = 0;
  const start = performance.now();
  for (let at = 0; at < txs.length; at += CHUNK) {
    for (let i = at; i < at + CHUNK && i < txs.length; i++) submit(txs[i]!);
    await turn();
  }
  for (let waited = 0; answered < BATCH && waited < 10_000; waited++) await turn();
  const ms = performance.now() - start;
  if (added !== BATCH) throw new Error(`expected ${BATCH} txs added, got ${added} of ${answered}`);
  return (BATCH * 1000) / ms;
}

mempool.answerPeerTxs(peerAnswered);
const viaAnswer = () => round((tx) => mempool.submitPeerTx(mempool.hashTx(tx), "peer0"));
// What the reactor did before: a promise per tx and its reaction.
const viaPromise = () =>
  round((tx) => {
    mempool.submitHashed(mempool.hashTx(tx), "peer0").then(
      (r) => peerAnswered("peer0", r.hash, r.outcome as Parameters<PeerTxAnswered>[2]),
      (error: Error) => {
        throw error;
      },
    );
  });

await viaAnswer(); // warm-up
await viaPromise();
const ours: { txsPerSecond: number; bytes: number }[] = [];
const baseline: { txsPerSecond: number; bytes: number }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  baseline.push(await sampled(viaPromise));
  ours.push(await sampled(viaAnswer));
}
session.disconnect();
await close();

const result = {
  batch: BATCH,
  rounds: ROUNDS,
  chunk: CHUNK,
  submitPeerTxTxsPerSecond: Math.round(median(ours.map((o) => o.txsPerSecond))),
  promisePerTxTxsPerSecond: Math.round(median(baseline.map((o) => o.txsPerSecond))),
  submitPeerTxBytesPerTx: Math.round(median(ours.map((o) => o.bytes)) / BATCH),
  promisePerTxBytesPerTx: Math.round(median(baseline.map((o) => o.bytes)) / BATCH),
};
console.log(
  `peers' txs into the mempool (${CHUNK} per turn): submitPeerTx ${result.submitPeerTxTxsPerSecond} txs/s, ${result.submitPeerTxBytesPerTx} B allocated per tx | promise per tx ${result.promisePerTxTxsPerSecond} txs/s, ${result.promisePerTxBytesPerTx} B per tx | ratios ${(result.submitPeerTxTxsPerSecond / result.promisePerTxTxsPerSecond).toFixed(3)} and ${(result.submitPeerTxBytesPerTx / result.promisePerTxBytesPerTx).toFixed(3)}`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "mempool-peer-txs.json"), `${JSON.stringify(result, null, 2)}\n`);
