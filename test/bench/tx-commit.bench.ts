// broadcast_tx_commit with one client at a time and timeout_commit = 0 (issue 19, item 7), on the
// BUILT node (`bin/run.js node`, in-process kvstore, one validator): the call's p50/p90/p99 beside
// two baselines of the same node in the same run, broadcast_tx_sync (the admission alone) and the
// node's own height interval, so the ratio says how many heights a call spans. Also counts the
// heights made during the calls and how many of them were empty: with create_empty_blocks = true
// the next height's proposal is reaped before the client's next tx arrives (the answer and the
// next proposal race), so each call spans two heights, one of them empty. The second node runs
// with create_empty_blocks = false, where round 0 waits for a tx (v0.34's TxsAvailable).
//   node --import tsx test/bench/tx-commit.bench.ts   (TX_COMMIT_CALLS, default 200)
// TX_COMMIT_KEEP=1 keeps the nodes' homes and prints them, for test/bench/height-phases.ts.
// Writes bench-results/tx-commit.json; never fails on time.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = process.env.LOAD_BIN ?? join(root, "bin", "run.js");
const CALLS = Number(process.env.TX_COMMIT_CALLS ?? 200);
const KEEP = process.env.TX_COMMIT_KEEP === "1";
const COMMITTED = /committed block\s.*height=(\d+) .*txs=(\d+)/;
const RPC_LISTENING = /RPC server listening\s.*address=tcp:\/\/([0-9.]+:\d+)/;

if (!existsSync(join(root, "dist", "streams", "node.js"))) {
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 2) => Number(n.toFixed(d));
const load1 = () => round(loadavg()[0]!);
const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const spread = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(quantile(s, 0.5)), p90: round(quantile(s, 0.9)), p99: round(quantile(s, 0.99)) };
};

/** A one-validator node in a temporary home, its committed heights read from its log. */
class LatencyNode {
  readonly home = mkdtempSync(join(tmpdir(), "rxbft-txcommit-"));
  readonly commits: { height: number; txs: number; at: number }[] = [];
  address = "";
  #tail = "";
  #child: ChildProcess | undefined;

  constructor(readonly createEmptyBlocks: boolean) {}

  async start() {
    const init = spawnSync(process.execPath, [BIN, "init", "--home", this.home, "--chain-id", "txc"], {
      encoding: "utf8",
    });
    if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
    const file = join(this.home, "config", "config.toml");
    const config = readFileSync(file, "utf8").replace(/^timeout_commit = .*$/m, 'timeout_commit = "0s"');
    if (!/^timeout_commit = "0s"$/m.test(config)) throw new Error("config.toml has no timeout_commit");
    writeFileSync(file, config);
    const child = spawn(
      process.execPath,
      [
        BIN,
        "node",
        "--home",
        this.home,
        "--proxy_app",
        "kvstore",
        "--rpc.laddr",
        "tcp://127.0.0.1:0",
        "--p2p.laddr",
        "tcp://127.0.0.1:0",
        `--consensus.create_empty_blocks=${this.createEmptyBlocks}`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    this.#child = child;
    let pending = "";
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      this.#tail = (this.#tail + text).slice(-4000);
      pending += text;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const c = COMMITTED.exec(line);
        if (c) this.commits.push({ height: Number(c[1]), txs: Number(c[2]), at: performance.now() });
        const r = RPC_LISTENING.exec(line);
        if (r) this.address = r[1]!;
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const deadline = performance.now() + 60_000;
    while (this.address === "" || this.commits.length === 0) {
      if (child.exitCode !== null) throw new Error(`node exited:\n${this.#tail}`);
      if (performance.now() > deadline) throw new Error(`node did not start:\n${this.#tail}`);
      await sleep(50);
    }
  }

  /** `calls` calls of `method`, one at a time, each with a new tx; milliseconds each. */
  async timed(method: string, run: string, calls: number): Promise<{ ms: number[]; failures: number }> {
    const ms: number[] = [];
    let failures = 0;
    for (let i = 0; i < calls; i++) {
      const tx = `${run}-${i}=`.padEnd(100, "v");
      const s = performance.now();
      const res = await fetch(`http://${this.address}/${method}?tx=%22${tx}%22`);
      const body = (await res.json()) as { result?: { code?: number; check_tx?: { code?: number } } };
      ms.push(performance.now() - s);
      if (!body.result || Number(body.result.code ?? body.result.check_tx?.code ?? 0) !== 0) failures++;
    }
    return { ms, failures };
  }

  async stop() {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.on("exit", r));
      child.kill("SIGINT");
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    }
    if (KEEP) console.log(`home kept: ${this.home}`);
    else rmSync(this.home, { recursive: true, force: true });
  }
}

async function measure(createEmptyBlocks: boolean) {
  const node = new LatencyNode(createEmptyBlocks);
  try {
    await node.start();
    const sync = await node.timed("broadcast_tx_sync", "s", CALLS);
    const from = node.commits.length;
    const load0 = load1();
    const commit = await node.timed("broadcast_tx_commit", "c", CALLS);
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
      commitP50OverHeightP50: round(commitMs.p50 / Math.max(0.01, interval.p50)),
      failures: sync.failures + commit.failures,
    };
  } finally {
    await node.stop();
  }
}

const results = [await measure(true), await measure(false)];
for (const r of results) {
  const c = r.broadcastTxCommitMs;
  console.log(
    `create_empty_blocks=${r.createEmptyBlocks}: broadcast_tx_commit p50/p90/p99 ${c.p50}/${c.p90}/${c.p99} ms | broadcast_tx_sync p50 ${r.broadcastTxSyncMs.p50} ms | height interval p50 ${r.heightIntervalMs.p50} ms, commit p50 ÷ that ${r.commitP50OverHeightP50} | ${r.heights} heights for ${CALLS} calls (${r.emptyHeights} empty) | failures ${r.failures} | load ${r.loadAverage.join("→")}`,
  );
}
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(
  join(root, "bench-results", "tx-commit.json"),
  `${JSON.stringify({ node: process.version, calls: CALLS, results }, null, 2)}\n`,
);
