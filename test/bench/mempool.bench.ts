// Admissions per second through the node's mempool loop (one turn's submissions folded as
// TxsSubmitted → RunCheckTxs on the in-process kvstore's mempool connection → CheckTxsCompleted →
// AdmissionDecided, each caller answered) beside a bare pool in the same run: the least any mempool
// does per tx (node:crypto's sha256 of the tx, the app's CheckTx called directly through the same
// client, the tx kept in a Map under its hash), so the ratio is what the loop's folding, caching,
// ordering and answers cost over that floor. (The app's CheckTx alone is a few hundred ns, which
// made a ratio against it say nothing.) Fresh txs each round (the cache would refuse repeats);
// rounds alternate; medians. Bounded in count and time; never fails on time. Writes
// bench-results/mempool.json.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { CheckTxType } from "../../src/wire/generated/tendermint/abci/types.js";
import { freshKvstoreTxs, kvstoreMempoolNode } from "./kvstore-mempool-node.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 5;
const BATCH = 5000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const freshTxs = freshKvstoreTxs();

// Room for every round's txs: this measures admission, not eviction.
const { mempool, client, close } = await kvstoreMempoolNode("mempool", (ROUNDS + 1) * BATCH);

async function throughLoop(): Promise<number> {
  const txs = freshTxs(BATCH);
  const start = performance.now();
  const results = await Promise.all(txs.map((tx) => mempool.submit(tx)));
  const ms = performance.now() - start;
  const refused = results.find((r) => r.outcome.kind !== "added");
  if (refused) throw new Error(`a tx was not admitted: ${JSON.stringify(refused.outcome)}`);
  return (BATCH * 1000) / ms;
}

async function barePool(): Promise<number> {
  const txs = freshTxs(BATCH);
  const pool = new Map<string, Uint8Array>();
  const start = performance.now();
  await Promise.all(
    txs.map(async (tx) => {
      const key = createHash("sha256").update(tx).digest("hex");
      const response = await client.mempool.checkTx({ tx, type: CheckTxType.NEW });
      if (response.code === 0) pool.set(key, tx);
    }),
  );
  const ms = performance.now() - start;
  if (pool.size !== BATCH) throw new Error(`the bare pool kept ${pool.size} of ${BATCH} txs`);
  return (BATCH * 1000) / ms;
}

await throughLoop(); // warm-up
await barePool();
const ours: number[] = [];
const baseline: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  ours.push(await throughLoop());
  baseline.push(await barePool());
}
await close();

const result = {
  batch: BATCH,
  rounds: ROUNDS,
  mempoolLoopAdmissionsPerSecond: Math.round(median(ours)),
  barePoolAdmissionsPerSecond: Math.round(median(baseline)),
  ratio: Number((median(ours) / median(baseline)).toFixed(3)),
  pendingAfter: mempool.state().txs.size,
};
console.log(
  `mempool loop: ${result.mempoolLoopAdmissionsPerSecond} admissions/s | bare pool (sha256 + app CheckTx + Map): ${result.barePoolAdmissionsPerSecond}/s | ratio ${result.ratio}`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "mempool.json"), `${JSON.stringify(result, null, 2)}\n`);
