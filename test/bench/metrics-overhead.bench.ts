// What the metric projections cost the node.
//   1. In process, stable: the consensus projection's time per fold (a recorded four-validator
//      log's transitions pushed through it, over and over) beside the reducer's own time per fold
//      of the same inputs.
//   2. End to end, noisy on a shared machine: committed tx/s of the BUILT node (in-process
//      kvstore, timeout_commit = 0) with [instrumentation] prometheus = false and = true, in the
//      same run, interleaved off/on ROUNDS times on fresh homes. Load: TXS unique txs as JSON-RPC batches of BATCH
// broadcast_tx_sync over CLIENTS keep-alive connections; committed = from the first request until
// the mempool is empty and every tx was admitted. With prometheus = true the endpoint is scraped
// once a second during the run, as Prometheus would. Writes bench-results/metrics-overhead.json;
// never fails on time.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Subject } from "rxjs";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import { createNodeMetrics } from "../../src/metrics/node-metrics.js";
import { type ConsensusFold, projectConsensusMetrics } from "../../streams/projections/metrics-consensus.js";
import { openSimulationTimeline } from "../../streams/replay-console/console-sources.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const BIN = join(root, "bin", "run.js");
const TXS = Number(process.env.MOB_TXS ?? 20_000);
const BATCH = 50;
const CLIENTS = 8;
const LIMIT_MS = 60_000;

function post(agent: Agent, port: number, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/",
        agent,
        headers: { "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          text += c;
        });
        res.on("end", () => resolve(text));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function runOnce(prometheus: boolean, tag: number): Promise<number> {
  const home = mkdtempSync(join(tmpdir(), "rxbft-metrics-bench-"));
  let node: ChildProcess | undefined;
  try {
    const init = spawnSync(process.execPath, [BIN, "init", "--home", home, "--chain-id", "mb"], {
      encoding: "utf8",
    });
    if (init.status !== 0) throw new Error(init.stderr);
    const file = join(home, "config", "config.toml");
    let text = readFileSync(file, "utf8");
    text = text.replace(/^timeout_commit = .*$/m, 'timeout_commit = "0s"');
    text = text.replace(/^size = 5000$/m, `size = ${TXS * 2}`);
    text = text.replace(/^prometheus = .*$/m, `prometheus = ${prometheus}`);
    text = text.replace(/^prometheus_listen_addr = .*$/m, 'prometheus_listen_addr = "127.0.0.1:0"');
    writeFileSync(file, text);
    node = spawn(
      process.execPath,
      [BIN, "node", "--home", home, "--proxy_app", "kvstore", "--rpc.laddr", "tcp://127.0.0.1:0"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    node.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const t0 = Date.now();
    while (
      !/RPC server listening\s.*address=tcp:\/\/[0-9.]+:(\d+)/.test(out) ||
      (prometheus && !/serving Prometheus metrics/.test(out))
    ) {
      if (Date.now() - t0 > 20_000) throw new Error(`node did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const port = Number(/RPC server listening\s.*address=tcp:\/\/[0-9.]+:(\d+)/.exec(out)![1]);
    const metricsPort = prometheus
      ? Number(/serving Prometheus metrics\s.*address=[0-9.]*:(\d+)/.exec(out)![1])
      : 0;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const scraper = prometheus
      ? setInterval(() => {
          fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
            (r) => r.text(),
            () => "",
          );
        }, 1000)
      : undefined;
    const started = Date.now();
    let next = 0;
    const client = async () => {
      while (next < TXS && Date.now() - started < LIMIT_MS) {
        const from = next;
        next += BATCH;
        const batch = [];
        for (let i = from; i < Math.min(from + BATCH, TXS); i++) {
          const tx = Buffer.from(`r${tag}k${i}=${"v".repeat(80)}`).toString("base64");
          batch.push({ jsonrpc: "2.0", id: i, method: "broadcast_tx_sync", params: { tx } });
        }
        await post(agent, port, JSON.stringify(batch));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    for (;;) {
      const r = JSON.parse(
        await post(agent, port, '{"jsonrpc":"2.0","id":1,"method":"num_unconfirmed_txs"}'),
      );
      if (Number(r.result.n_txs) === 0 || Date.now() - started > LIMIT_MS) break;
      await new Promise((res) => setTimeout(res, 5));
    }
    const seconds = (Date.now() - started) / 1000;
    if (scraper) clearInterval(scraper);
    agent.destroy();
    return TXS / seconds;
  } finally {
    node?.kill("SIGKILL");
    rmSync(home, { recursive: true, force: true });
  }
}

// 1. The projection per fold, beside the fold itself.
const { timeline } = await openSimulationTimeline(
  fileURLToPath(new URL("../fixtures/replay/two-rounds/", import.meta.url)),
  0,
);
const reducer = createConsensusReducer(createDefaultConsensusRules());
const folds: ConsensusFold[] = [];
{
  let state = timeline.initial;
  for (const input of timeline.inputs) {
    const t = reducer(state, input);
    folds.push({ input, before: state, state: t.state, effects: t.effects });
    state = t.state;
  }
}
const REPEAT = 400;
const metrics = createNodeMetrics({ namespace: "tendermint", chainId: "bench" });
const fold$ = new Subject<ConsensusFold>();
const projection = projectConsensusMetrics(fold$, {
  metrics,
  blockTimeAt: async () => undefined,
  now: () => performance.now(),
});
let projectMs = Infinity;
let reduceMs = Infinity;
for (let round = 0; round < 5; round++) {
  let t = performance.now();
  for (let r = 0; r < REPEAT; r++) for (const f of folds) fold$.next(f);
  projectMs = Math.min(projectMs, performance.now() - t);
  t = performance.now();
  for (let r = 0; r < REPEAT; r++) for (const f of folds) reducer(f.before, f.input);
  reduceMs = Math.min(reduceMs, performance.now() - t);
}
projection.unsubscribe();
const perFold = (ms: number) => (ms * 1000) / (REPEAT * folds.length);
console.log(
  `consensus projection ${perFold(projectMs).toFixed(2)} µs per fold vs the reducer's ${perFold(reduceMs).toFixed(2)} µs per fold (ratio ${(projectMs / reduceMs).toFixed(3)})`,
);

// 2. End to end.
const ROUNDS = Number(process.env.MOB_ROUNDS ?? 3);
const off: number[] = [];
const on: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  off.push(await runOnce(false, i * 2));
  on.push(await runOnce(true, i * 2 + 1));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result = {
  projectionMicrosPerFold: perFold(projectMs),
  reducerMicrosPerFold: perFold(reduceMs),
  txs: TXS,
  offTxPerSecond: off.map(Math.round),
  onTxPerSecond: on.map(Math.round),
  ratio: median(on) / median(off),
  overheadPercent: (1 - median(on) / median(off)) * 100,
};
console.log(
  `committed tx/s with metrics on ${on.map((x) => Math.round(x)).join(", ")} vs off ${off.map((x) => Math.round(x)).join(", ")}: ratio ${result.ratio.toFixed(3)} (medians; overhead ${result.overheadPercent.toFixed(1)} %, aim ≤ 3 %)`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "metrics-overhead.json"), `${JSON.stringify(result, null, 2)}\n`);
