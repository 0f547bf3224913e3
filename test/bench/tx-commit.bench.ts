// broadcast_tx_commit with one client at a time and timeout_commit = 0 (issue 19, item 7), on the
// BUILT node (`bin/run.js node`, in-process kvstore, one validator): the call's p50/p90/p99 beside
// two baselines of the same node in the same run, broadcast_tx_sync (the admission alone) and the
// node's own height interval, so the ratio says how many heights a call spans. Also counts the
// heights made during the calls and how many of them were empty: with create_empty_blocks = true
// the next height's proposal is reaped before the client's next tx arrives (the answer and the
// next proposal race), so each call spans two heights, one of them empty. The second node runs
// with create_empty_blocks = false, where round 0 waits for a tx (v0.34's TxsAvailable).
//   node --import tsx test/bench/tx-commit.bench.ts   (TX_COMMIT_CALLS, default 200;
//   RPC_BENCH_BIN=<bin/run.js> runs another build)
// TX_COMMIT_KEEP=1 keeps the nodes' homes and prints them, for test/bench/height-phases.ts.
// Writes bench-results/tx-commit.json; never fails on time.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchNode, buildIfMissing, load, root, round } from "./rpc-bench-node.js";

const CALLS = Number(process.env.TX_COMMIT_CALLS ?? 200);
const KEEP = process.env.TX_COMMIT_KEEP === "1";

buildIfMissing();

const load1 = () => load()[0]!;
const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(quantile(s, 0.5)), p90: round(quantile(s, 0.9)), p99: round(quantile(s, 0.99)) };
};

/**
 * CPU time (user + system, ms) of the node's main thread alone (its task of the same id as the
 * process), 0 where /proc is absent: the consensus loop's own share beside the process's total.
 */
function mainThreadCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** `calls` calls of `method` on `node`, one at a time, each with a new tx; milliseconds each. */
async function timed(
  node: BenchNode,
  method: string,
  run: string,
  calls: number,
): Promise<{ ms: number[]; failures: number }> {
  const ms: number[] = [];
  let failures = 0;
  for (let i = 0; i < calls; i++) {
    const tx = `${run}-${i}=`.padEnd(100, "v");
    const s = performance.now();
    const res = await fetch(`http://${node.address}/${method}?tx=%22${tx}%22`);
    const body = (await res.json()) as { result?: { code?: number; check_tx?: { code?: number } } };
    ms.push(performance.now() - s);
    if (!body.result || Number(body.result.code ?? body.result.check_tx?.code ?? 0) !== 0) failures++;
  }
  return { ms, failures };
}

async function measure(createEmptyBlocks: boolean) {
  const node = new BenchNode({
    "consensus.timeout_commit": '"0s"',
    "consensus.create_empty_blocks": String(createEmptyBlocks),
  });
  try {
    await node.start();
    const sync = await timed(node, "broadcast_tx_sync", "s", CALLS);
    const from = node.commits.length;
    const load0 = load1();
    const cpu0 = node.cpuMs();
    const main0 = mainThreadCpuMs(node.pid);
    const commit = await timed(node, "broadcast_tx_commit", "c", CALLS);
    const cpu = node.cpuMs() - cpu0;
    const mainCpu = mainThreadCpuMs(node.pid) - main0;
    const heights = node.commits.slice(from);
    const gaps = heights.slice(1).map((c, i) => c.at - heights[i]!.at);
    const interval = spread(gaps);
    const commitMs = spread(commit.ms);
    return {
      createEmptyBlocks,
      loadAverage: [load0, load1()],
      broadcastTxCommitMs: commitMs,
      broadcastTxSyncMs: spread(sync.ms),
      heightIntervalMs: interval,
      heights: heights.length,
      emptyHeights: heights.filter((c) => c.txs === 0).length,
      heightsPerCall: round(heights.length / CALLS),
      // the node's CPU (all its threads) over the calls, per height made meanwhile
      cpuMsPerHeight: round(cpu / Math.max(1, heights.length)),
      mainThreadCpuMsPerHeight: round(mainCpu / Math.max(1, heights.length)),
      commitP50OverHeightP50: round(commitMs.p50 / Math.max(0.01, interval.p50)),
      failures: sync.failures + commit.failures,
    };
  } finally {
    await node.stop(KEEP);
  }
}

const results = [await measure(true), await measure(false)];
for (const r of results) {
  const c = r.broadcastTxCommitMs;
  console.log(
    `create_empty_blocks=${r.createEmptyBlocks}: broadcast_tx_commit p50/p90/p99 ${c.p50}/${c.p90}/${c.p99} ms | broadcast_tx_sync p50 ${r.broadcastTxSyncMs.p50} ms | height interval p50 ${r.heightIntervalMs.p50} ms, CPU ${r.cpuMsPerHeight} ms/height (main thread ${r.mainThreadCpuMsPerHeight}), commit p50 ÷ that ${r.commitP50OverHeightP50} | ${r.heights} heights for ${CALLS} calls (${r.emptyHeights} empty) | failures ${r.failures} | load ${r.loadAverage.join("→")}`,
  );
}
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(
  join(root, "bench-results", "tx-commit.json"),
  `${JSON.stringify({ node: process.version, calls: CALLS, results }, null, 2)}\n`,
);
