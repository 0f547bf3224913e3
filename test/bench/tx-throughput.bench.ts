// End to end on one validator through the RPC (issue 7): the BUILT node (`bin/run.js node`,
// in-process kvstore, timeout_commit = 0, default mempool cache_size) driven over loopback by
// CLIENTS keep-alive HTTP connections (node:http clients in this process, on the same 2 cores).
//   1. committed tx/s: TXS unique 100-byte `key=value` txs via JSON-RPC POST broadcast_tx_sync,
//      from the first request until the block holding the last one is committed; the count is
//      the sum of num_txs over the measured heights, read back from the block store (/blockchain).
//      Once with one tx per request, beside GET /health req/s over the same connections (the
//      ceiling the transport and this client allow); once with BATCH txs per JSON-RPC batch,
//      beside batches of BATCH `health` calls. Node and client CPU per 1,000 txs beside each.
//   2. latency: p50/p99 of broadcast_tx_commit (LATENCY_CALLS calls, LATENCY_CLIENTS clients each
//      calling one after the other) beside broadcast_tx_sync on the same node, same clients.
// Every loop is bounded in count and time. The node is stopped by its PID at the end, even on
// failure. Environment: TXB_TXS, TXB_CLIENTS, TXB_BATCH; TXB_PROF=<dir> runs the node under
// --cpu-prof into <dir>; TXB_BIN=<path to another build's bin/run.js> for before/after runs.
// Builds first if dist/ is missing (run `npm run build` after changing the source). Writes
// bench-results/tx-throughput.json; never fails on time.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** TXB_BIN: another build's bin/run.js (a copy of an earlier dist, for before/after runs). */
const BIN = process.env.TXB_BIN ?? join(root, "bin", "run.js");
const CLIENTS = Number(process.env.TXB_CLIENTS ?? 16);
const TXS = Number(process.env.TXB_TXS ?? 30_000);
const HEALTH_REQUESTS = 30_000;
const LATENCY_CLIENTS = 4;
const LATENCY_CALLS = 500;
const PHASE_LIMIT_MS = 60_000;
const TX_BYTES = 100;
const BATCH = Number(process.env.TXB_BATCH ?? 50);

if (!existsSync(join(root, "dist", "streams", "node.js"))) {
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

const home = mkdtempSync(join(tmpdir(), "rxbft-tx-throughput-"));
const init = spawnSync(process.execPath, [BIN, "init", "--home", home, "--chain-id", "tx-bench"], {
  encoding: "utf8",
});
if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
const configFile = join(home, "config", "config.toml");
let config = readFileSync(configFile, "utf8");
const set = (section: string, key: string, value: string) => {
  const start = config.indexOf(`[${section}]`);
  const re = new RegExp(`^${key} = .*$`, "m");
  const m = re.exec(config.slice(start));
  if (start < 0 || !m) throw new Error(`config.toml has no [${section}] ${key}`);
  const at = start + m.index;
  config = `${config.slice(0, at)}${key} = ${value}${config.slice(at + m[0].length)}`;
};
set("consensus", "timeout_commit", '"0s"');
set("mempool", "size", String(TXS * 3));
set("rpc", "timeout_broadcast_tx_commit", '"30s"');
set("rpc", "max_open_connections", "0");
writeFileSync(configFile, config);

// --- the node -----------------------------------------------------------------------------------
const COMMITTED = /committed block\s.*height=(\d+) .*txs=(\d+)/;
const RPC_LISTENING = /RPC server listening\s.*address=tcp:\/\/([0-9.]+:\d+)/;
const prof = process.env.TXB_PROF;
const nodeArgs = [
  ...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []),
  BIN,
  "node",
  "--home",
  home,
  "--proxy_app",
  "kvstore",
  "--rpc.laddr",
  "tcp://127.0.0.1:0",
  "--p2p.laddr",
  "tcp://127.0.0.1:0",
];
const child: ChildProcess = spawn(process.execPath, nodeArgs, { stdio: ["ignore", "pipe", "pipe"] });
let address = "";
let height = 0;
let committedTxs = 0;
/** (height, txs, ms) of every committed block, in order. */
const commits: { height: number; txs: number; at: number }[] = [];
let tail = "";
let pending = "";
const waiters: (() => void)[] = [];
const onData = (chunk: Buffer) => {
  const text = chunk.toString();
  tail = (tail + text).slice(-4000);
  pending += text;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const c = COMMITTED.exec(line);
    if (c) {
      height = Number(c[1]);
      committedTxs += Number(c[2]);
      commits.push({ height, txs: Number(c[2]), at: performance.now() });
    }
    const r = RPC_LISTENING.exec(line);
    if (r) address = r[1]!;
  }
  for (const w of waiters.splice(0)) w();
};
child.stdout!.on("data", onData);
child.stderr!.on("data", onData);
const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));

const waitFor = (check: () => boolean, what: string, ms: number) =>
  new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => resolve(check()), ms);
    void exited.then(() => {
      clearTimeout(timer);
      if (!check()) reject(new Error(`node exited before ${what}:\n${tail}`));
    });
    const test = () => {
      if (check()) {
        clearTimeout(timer);
        resolve(true);
      } else waiters.push(test);
    };
    test();
  });

const stopNode = async () => {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  process.kill(child.pid, "SIGINT");
  const done = await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!done && child.exitCode === null) process.kill(child.pid, "SIGKILL");
  await exited;
};
/** CPU time (user + system) the node process has used, in ms, from /proc (0 where there is none). */
const nodeCpuMs = () => {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// --- the clients --------------------------------------------------------------------------------
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
const [host, port] = ["127.0.0.1", () => Number(address.split(":")[1])];
const http = (method: "GET" | "POST", path: string, body?: string) =>
  new Promise<string>((resolve, reject) => {
    const req = request(
      {
        agent,
        host,
        port: port(),
        method,
        path,
        headers: body === undefined ? {} : { "content-type": "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Buffer.concat(chunks).toString()));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
const rpc = async (method: string, params: Record<string, unknown>, id = 1) => {
  const text = await http("POST", "/", JSON.stringify({ jsonrpc: "2.0", id, method, params }));
  return JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown };
};

/** Unique 100-byte `key=value` tx number i of run `run`, base64. */
const tx = (run: string, i: number) => {
  const head = `${run}-${i}=`;
  return Buffer.from(head.padEnd(TX_BYTES, "v")).toString("base64");
};

/** `clients` loops each taking the next index until `count` or the deadline; returns ms. */
const drive = async (clients: number, count: number, one: (i: number) => Promise<void>) => {
  let next = 0;
  const deadline = performance.now() + PHASE_LIMIT_MS;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < count && performance.now() < deadline) await one(next++);
    }),
  );
  return { ms: performance.now() - t0, done: Math.min(next, count) };
};

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (n: number, d = 1) => Number(n.toFixed(d));

let result: Record<string, unknown> | undefined;
try {
  await waitFor(() => address !== "" && height >= 1, "the RPC server and a first block", 60_000);

  // Baseline: GET /health over the same CLIENTS connections; and the same in JSON-RPC batches.
  await drive(CLIENTS, 2_000, async () => void (await http("GET", "/health")));
  const health = await drive(CLIENTS, HEALTH_REQUESTS, async () => void (await http("GET", "/health")));
  const healthPerSecond = (health.done * 1000) / health.ms;
  const healthBatch = JSON.stringify(
    Array.from({ length: BATCH }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "health", params: {} })),
  );
  const batched = await drive(
    CLIENTS,
    Math.ceil(HEALTH_REQUESTS / BATCH) * 2,
    async () => void (await http("POST", "/", healthBatch)),
  );
  const healthBatchPerSecond = (batched.done * BATCH * 1000) / batched.ms;

  // 1. committed tx/s through broadcast_tx_sync, one tx per request, then BATCH per request.
  const throughput = async (run: string, batch: number) => {
    const startHeight = height;
    const startCommitted = committedTxs;
    let refused = 0;
    const cpu0 = [process.cpuUsage(), nodeCpuMs()] as const;
    const t0 = performance.now();
    const sent = await drive(CLIENTS, Math.ceil(TXS / batch), async (i) => {
      if (batch === 1) {
        const body = await rpc("broadcast_tx_sync", { tx: tx(run, i) }, i);
        if (!body.result || Number(body.result.code) !== 0) refused++;
        return;
      }
      const calls = Array.from({ length: batch }, (_, j) => ({
        jsonrpc: "2.0",
        id: j,
        method: "broadcast_tx_sync",
        params: { tx: tx(run, i * batch + j) },
      }));
      const bodies = JSON.parse(await http("POST", "/", JSON.stringify(calls))) as {
        result?: { code: number | string };
      }[];
      for (const body of bodies) if (!body.result || Number(body.result.code) !== 0) refused++;
    });
    const admittedMs = performance.now() - t0;
    const count = sent.done * batch;
    const target = startCommitted + count - refused;
    await waitFor(() => committedTxs >= target, `${count - refused} committed txs`, PHASE_LIMIT_MS);
    const lastTxHeight = [...commits].reverse().find((c) => c.txs > 0 && c.height > startHeight);
    const endHeight = lastTxHeight?.height ?? height;
    const committedMs = (lastTxHeight?.at ?? performance.now()) - t0;
    const clientCpu = process.cpuUsage(cpu0[0]);
    const nodeCpu = nodeCpuMs() - cpu0[1];
    // The count from the block store: num_txs of every height in (startHeight, endHeight].
    let stored = 0;
    for (let min = startHeight + 1; min <= endHeight; min += 20) {
      const max = Math.min(endHeight, min + 19);
      const page = await rpc("blockchain", { minHeight: String(min), maxHeight: String(max) });
      const metas = (page.result?.block_metas ?? []) as { num_txs: string }[];
      for (const m of metas) stored += Number(m.num_txs);
    }
    return {
      txsPerRequest: batch,
      sent: count,
      refused,
      admittedMs: Math.round(admittedMs),
      admittedPerSecond: Math.round((count * 1000) / admittedMs),
      committed: stored,
      heights: endHeight - startHeight,
      ms: Math.round(committedMs),
      committedPerSecond: Math.round((stored * 1000) / committedMs),
      nodeCpuMsPerKTx: round((nodeCpu * 1000) / Math.max(1, stored), 1),
      clientCpuMsPerKTx: round((clientCpu.user + clientCpu.system) / Math.max(1, stored), 1),
    };
  };
  const single = await throughput("t", 1);
  const batchedTxs = await throughput("b", BATCH);
  const committedPerSecond = single.committedPerSecond;

  // 2. latency: broadcast_tx_sync, then broadcast_tx_commit, same clients.
  const timed = async (method: string, run: string) => {
    const times: number[] = [];
    let failures = 0;
    const r = await drive(LATENCY_CLIENTS, LATENCY_CALLS, async (i) => {
      const s = performance.now();
      const body = await rpc(method, { tx: tx(run, i) }, i);
      times.push(performance.now() - s);
      const check = body.result?.check_tx as { code?: number } | undefined;
      const code = body.result ? Number(body.result.code ?? check?.code ?? 0) : -1;
      if (code !== 0) failures++;
    });
    times.sort((a, b) => a - b);
    return {
      calls: r.done,
      failures,
      p50Ms: round(percentile(times, 50), 2),
      p99Ms: round(percentile(times, 99), 2),
      ms: Math.round(r.ms),
    };
  };
  const syncLatency = await timed("broadcast_tx_sync", "s");
  const commitLatency = await timed("broadcast_tx_commit", "c");

  result = {
    machine: { cores: (await import("node:os")).cpus().length, node: process.version },
    config: { clients: CLIENTS, txBytes: TX_BYTES, timeoutCommit: "0s", proxyApp: "kvstore" },
    health: { requests: health.done, ms: Math.round(health.ms), perSecond: Math.round(healthPerSecond) },
    healthBatched: {
      callsPerRequest: BATCH,
      calls: batched.done * BATCH,
      ms: Math.round(batched.ms),
      perSecond: Math.round(healthBatchPerSecond),
    },
    throughput: single,
    ratioToHealth: round(committedPerSecond / healthPerSecond, 3),
    throughputBatched: batchedTxs,
    batchedRatioToHealthBatched: round(batchedTxs.committedPerSecond / healthBatchPerSecond, 3),
    latency: {
      clients: LATENCY_CLIENTS,
      broadcastTxSync: syncLatency,
      broadcastTxCommit: commitLatency,
    },
  };
  console.log(
    `committed: ${single.committedPerSecond} tx/s (${single.committed} txs of ${TX_BYTES} B over ${single.heights} heights in ${single.ms} ms, ${CLIENTS} clients, broadcast_tx_sync; admitted ${single.admittedPerSecond}/s; node ${single.nodeCpuMsPerKTx} CPU-ms/1k tx, client ${single.clientCpuMsPerKTx}) | GET /health: ${Math.round(healthPerSecond)} req/s | ratio ${result.ratioToHealth}`,
  );
  console.log(
    `committed, ${BATCH} txs per JSON-RPC batch: ${batchedTxs.committedPerSecond} tx/s (${batchedTxs.committed} txs over ${batchedTxs.heights} heights in ${batchedTxs.ms} ms; admitted ${batchedTxs.admittedPerSecond}/s; node ${batchedTxs.nodeCpuMsPerKTx} CPU-ms/1k tx, client ${batchedTxs.clientCpuMsPerKTx}) | health in batches of ${BATCH}: ${Math.round(healthBatchPerSecond)} calls/s | ratio ${result.batchedRatioToHealthBatched}`,
  );
  console.log(
    `broadcast_tx_commit (timeout_commit 0, ${LATENCY_CLIENTS} clients): p50 ${commitLatency.p50Ms} ms p99 ${commitLatency.p99Ms} ms | broadcast_tx_sync: p50 ${syncLatency.p50Ms} ms p99 ${syncLatency.p99Ms} ms | p50 ratio ${round(commitLatency.p50Ms / syncLatency.p50Ms, 1)}`,
  );
} finally {
  agent.destroy();
  await stopNode();
  rmSync(home, { recursive: true, force: true });
}
if (result) {
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "tx-throughput.json"), `${JSON.stringify(result, null, 2)}\n`);
}
