// The 4-validator loopback network of `rxbft testnet --v 4` at DEFAULT consensus timings
// (timeout_commit 1 s, …), beside ONE validator (`testnet --v 1`) in the same run, same load:
//   - committed tx/s: the load's txs in the blocks committed while it ran, over the span of
//     those blocks' times (from the block before the first loaded one to the last one holding a
//     tx of the load: load-window.ts; the finality clients' txs do not extend it);
//   - block interval: mean and p50 of successive header times, idle (before the load) and under
//     load;
//   - time to finality: p50/p99 of broadcast_tx_commit (submit → committed), called one after
//     the other by FINALITY_CLIENTS clients, once the load is gone and while it runs (for
//     NETB_SECONDS from the load's start, or until every wrk ended if sooner).
// Load: wrk (one process per node, 1 thread, WRK_CONNECTIONS keep-alive connections, each
// request a JSON-RPC batch of BATCH broadcast_tx_sync calls with unique `key=value` txs, from a
// Lua script) when /usr/bin/wrk exists, else the same batches from a bounded node:http client
// in this process (it says which). With NETB_RATE (tx/s offered to the whole network, split evenly
// among its nodes, so one validator and four get the same total) wrk paces its requests to that
// rate and sends at most NETB_SECONDS of it: an open-loop offer, so two trees are compared on
// committed tx/s at the same offered rate instead of on what closed-loop clients get in. Every
// phase is bounded (NETB_SECONDS of load, timeouts on every wait). Builds first if dist/ is
// missing. Writes bench-results/network.json; never fails on time. NETB_FOUR_ONLY=1 runs the four
// validators alone (for a profile or a quick A/B), printing their figures as JSON.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Network } from "../e2e/network-harness.js";
import { killAllNodes } from "../e2e/node-harness.js";
import { freePorts, setConfig } from "../e2e/p2p-harness.js";
import { inspectorUrl, startProfile, type WindowProfiler } from "./inspector-profile.js";
import { type CommittedBlock, countWithPrefix, loadWindow } from "./load-window.js";
import { bytesPerTx, sentBytesByType, sumByType } from "./p2p-sent-bytes.js";
import { scheduledDelayLua } from "./wrk-pacing.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const LOAD_SECONDS = Number(process.env.NETB_SECONDS ?? 15);
const IDLE_BLOCKS = 6;
const WRK = "/usr/bin/wrk";
const WRK_CONNECTIONS = Number(process.env.NETB_CONNECTIONS ?? 4);
/** txs per JSON-RPC batch request */
const BATCH = Number(process.env.NETB_BATCH ?? 50);
const FINALITY_CLIENTS = 2;
const FINALITY_CALLS = 30;
const VALUE = "v".repeat(64);
/**
 * `[mempool] size` of every node when set (NETB_MEMPOOL_SIZE): v0.34's default of 5,000 caps a
 * block at 5,000 txs, so ≥ 5,000 tx/s at a > 1 s interval needs it raised; the bench says which.
 */
const MEMPOOL_SIZE = process.env.NETB_MEMPOOL_SIZE;
/** Offered tx/s for the whole network (NETB_RATE), or undefined for closed-loop load. */
const RATE = process.env.NETB_RATE === undefined ? undefined : Number(process.env.NETB_RATE);
/**
 * NETB_PROFILE=<file>: a CPU profile of node NETB_PROFILE_NODE (default 1) of the four validators,
 * over the load window only (started with the load, stopped when the last wrk ends), through the
 * inspector; read it with cpu-profile-summary.mjs --root "(root)".
 */
const PROFILE_FILE = process.env.NETB_PROFILE;
const PROFILE_NODE = Number(process.env.NETB_PROFILE_NODE ?? 1);
/**
 * NETB_ALLOC_PROFILE=<file> (with NETB_PROFILE): the same node's allocations over the same window,
 * sampled through the inspector (one sample per 16 KiB, collected objects included); read it with
 * alloc-profile-summary.mjs. It slows the node a little: take CPU figures from runs without it.
 */
const ALLOC_PROFILE_FILE = process.env.NETB_ALLOC_PROFILE;
/**
 * NETB_PHASES=1: where the loaded heights of the four validators went, phase by phase
 * (height-phases.ts over their logs, run before the homes are removed), and where each block's
 * parts came from and when (part-arrivals.ts over the same logs).
 */
const PHASES = process.env.NETB_PHASES === "1";
/**
 * NETB_P2P_BYTES=1: every validator serves Prometheus metrics, and the bytes the four handed their
 * peers from the load's start until their mempools drained are printed per committed tx by message
 * type (p2p-sent-bytes.ts), with the block parts sent over the loaded blocks' bytes (3 would be
 * each other validator getting each part once). The metrics cost the nodes a little CPU: take the
 * CPU and rate figures from runs without it.
 */
const P2P_BYTES = process.env.NETB_P2P_BYTES === "1";
if (RATE !== undefined && !(Number.isFinite(RATE) && RATE > 0))
  throw new Error(`NETB_RATE must be a positive number of tx/s, got "${process.env.NETB_RATE}"`);

if (!existsSync(join(root, "dist", "streams", "node.js"))) {
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

interface Figures {
  validators: number;
  loadTool: string;
  txsCommitted: number;
  spanSeconds: number;
  txPerSecond: number;
  /** txs sent (requests × BATCH) */
  requestsSent: number;
  idleIntervalMeanMs: number;
  idleIntervalP50Ms: number;
  loadIntervalMeanMs: number;
  loadIntervalP50Ms: number;
  finalityP50Ms: number;
  finalityP99Ms: number;
  finalityCalls: number;
  /** the same under the load; calls past timeout_broadcast_tx_commit counted apart */
  loadFinalityP50Ms: number;
  loadFinalityP99Ms: number;
  loadFinalityFailed: number;
  /** CPU seconds all nodes used from the load's start until their mempools drained (/proc) */
  nodeCpuSeconds: number;
  /** nodeCpuSeconds over that wall time: the cores the nodes kept busy (the machine has 2) */
  nodeCores: number;
  /** NETB_P2P_BYTES: bytes all nodes sent their peers per committed load tx, by message type */
  p2pSentBytesPerTx?: Record<string, number>;
  /** NETB_P2P_BYTES: block part bytes sent over the loaded blocks' tx bytes (each part once to each other validator: validators − 1) */
  blockPartCopies?: number;
}

/** CPU time (user + system, all threads) of a process so far, seconds; 0 when not readable. */
function cpuSecondsOf(pid: number | undefined): number {
  try {
    // /proc/<pid>/stat: fields 14 and 15 are utime and stime in clock ticks (USER_HZ, 100 here);
    // the command name (field 2) may hold spaces, so count from its closing parenthesis
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const mean = (xs: number[]) => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

/** A committed block as headers() reads it: with its txs' bytes (NETB_P2P_BYTES's copies). */
type ReadBlock = CommittedBlock & { readonly txBytes: number };

/** Bytes of a base64 string's decoded value. */
const base64Bytes = (b64: string) =>
  (b64.length / 4) * 3 - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);

/** Blocks [from, to] from node 0: header time, all txs, and the txs of the load (`loadPrefix`). */
async function headers(net: Network, from: bigint, to: bigint, loadPrefix: string): Promise<ReadBlock[]> {
  const out: ReadBlock[] = [];
  for (let h = from; h <= to; h++) {
    const b = await net.rpc<{ block: { header: { time: string }; data: { txs: string[] | null } } }>(
      0,
      `/block?height=${h}`,
    );
    const txs = b.block.data.txs;
    out.push({
      time: Date.parse(b.block.header.time),
      txs: txs?.length ?? 0,
      loadTxs: countWithPrefix(txs, loadPrefix),
      txBytes: (txs ?? []).reduce((sum, tx) => sum + base64Bytes(tx), 0),
    });
  }
  return out;
}

function intervals(hs: readonly { time: number }[]): number[] {
  const d: number[] = [];
  for (let i = 1; i < hs.length; i++) d.push(hs[i]!.time - hs[i - 1]!.time);
  return d.sort((a, b) => a - b);
}

/**
 * wrk's Lua script: POST one JSON-RPC batch of BATCH broadcast_tx_sync calls per request, each
 * tx unique (`<prefix>-<counter>=<value>`, base64 as JSON-RPC takes bytes).
 */
function wrkScript(dir: string, ratePerNode: number | undefined): string {
  const file = join(dir, "broadcast.lua");
  writeFileSync(
    file,
    `${ratePerNode === undefined ? "" : pacing(ratePerNode)}local A = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local function sextet(n) return A:sub(n + 1, n + 1) end
local function base64(s)
  local out = {}
  for i = 1, #s, 3 do
    local a, b, c = s:byte(i, i + 2)
    local n = a * 65536 + (b or 0) * 256 + (c or 0)
    out[#out + 1] = sextet(math.floor(n / 262144) % 64) .. sextet(math.floor(n / 4096) % 64)
      .. (b and sextet(math.floor(n / 64) % 64) or "=") .. (c and sextet(n % 64) or "=")
  end
  return table.concat(out)
end
local counter = 0
local prefix = "x"
function init(args) prefix = args[1] or "x" end
function request()
  local calls = {}
  for k = 1, ${BATCH} do
    counter = counter + 1
    local tx = base64(prefix .. "-" .. counter .. "=${VALUE}")
    calls[k] = '{"jsonrpc":"2.0","id":' .. k .. ',"method":"broadcast_tx_sync","params":{"tx":"' .. tx .. '"}}'
  end
  return wrk.format("POST", "/", { ["Content-Type"] = "application/json" }, "[" .. table.concat(calls, ",") .. "]")
end
`,
  );
  return file;
}

/** The schedule for one node's wrk thread: BATCH txs per request at `ratePerNode` tx/s. */
function pacing(ratePerNode: number): string {
  return scheduledDelayLua((BATCH * 1000) / ratePerNode, Math.ceil((LOAD_SECONDS * ratePerNode) / BATCH));
}

function runWrk(script: string, url: string, prefix: string): Promise<number> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(
      WRK,
      [
        "-t1",
        `-c${WRK_CONNECTIONS}`,
        // a paced run gets a little longer to send its last requests if the node fell behind
        `-d${RATE === undefined ? LOAD_SECONDS : LOAD_SECONDS + 5}s`,
        "--timeout",
        "10s",
        "-s",
        script,
        url,
        "--",
        prefix,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", () => {
      const m = /(\d+) requests in/.exec(out);
      resolve(m ? Number(m[1]) * BATCH : 0);
    });
  });
}

/** The fallback load: the same batches from this process (keep-alive), bounded by LOAD_SECONDS. */
async function runNodeClient(url: string, prefix: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: WRK_CONNECTIONS });
  const end = Date.now() + LOAD_SECONDS * 1000;
  let sent = 0;
  const worker = async () => {
    while (Date.now() < end) {
      const calls = Array.from({ length: BATCH }, (_, k) => ({
        jsonrpc: "2.0",
        id: k,
        method: "broadcast_tx_sync",
        params: { tx: Buffer.from(`${prefix}-${sent++}=${VALUE}`).toString("base64") },
      }));
      const body = JSON.stringify(calls);
      await new Promise<void>((resolve) => {
        const req = request(
          url,
          { method: "POST", agent, headers: { "content-type": "application/json" } },
          (res) => {
            res.resume();
            res.on("end", () => resolve());
          },
        );
        req.on("error", () => resolve());
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: WRK_CONNECTIONS }, worker));
  agent.destroy();
  return sent;
}

/**
 * broadcast_tx_commit latencies (submit → committed) from FINALITY_CLIENTS clients calling one
 * after the other, spread over the nodes, until `stop()` or FINALITY_CALLS each; a call that
 * fails (v0.34's timeout_broadcast_tx_commit is 10 s) is counted, not timed.
 */
async function finality(
  net: Network,
  nodes: number,
  stop: () => boolean,
): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  const client = async (c: number) => {
    for (let k = 0; k < FINALITY_CALLS && !stop(); k++) {
      const t = performance.now();
      const r = (await net
        .node((c + k) % nodes)
        .rpc(`/broadcast_tx_commit?tx=%22fin-${c}-${k}-${Date.now()}%3D1%22`)) as {
        result?: { height?: string };
      };
      if (r.result?.height !== undefined && r.result.height !== "0") ms.push(performance.now() - t);
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: FINALITY_CLIENTS }, (_, c) => client(c)));
  return { ms: ms.sort((a, b) => a - b), failed };
}

async function measure(validators: number): Promise<Figures> {
  const net = await Network.create({ validators, consensus: {}, prefix: `rxbft-netbench-${validators}-` });
  const all = Array.from({ length: validators }, (_, i) => i);
  if (MEMPOOL_SIZE !== undefined)
    for (const home of net.homes) setConfig(home, "mempool", { size: Number(MEMPOOL_SIZE) });
  const profiled = PROFILE_FILE !== undefined && validators === 4 ? PROFILE_NODE : -1;
  const metricsPorts = P2P_BYTES ? await freePorts(validators) : [];
  for (const [i, port] of metricsPorts.entries())
    setConfig(net.homes[i]!, "instrumentation", {
      prometheus: true,
      prometheus_listen_addr: `127.0.0.1:${port}`,
    });
  // every node's bytes sent by message type, summed (NETB_P2P_BYTES)
  const sentBytes = async () =>
    sumByType(
      await Promise.all(
        metricsPorts.map(async (port) => {
          const response = await fetch(`http://127.0.0.1:${port}/metrics`);
          if (!response.ok) throw new Error(`metrics of 127.0.0.1:${port}: HTTP ${response.status}`);
          const sent = sentBytesByType(await response.text());
          if (sent.size === 0)
            throw new Error(`metrics of 127.0.0.1:${port}: no p2p_message_send_bytes_total series`);
          return sent;
        }),
      ),
    );
  const nodeOptions = process.env.NODE_OPTIONS;
  for (const i of all) {
    // only the profiled node gets an inspector (the child's environment is copied at spawn)
    if (i === profiled) process.env.NODE_OPTIONS = `${nodeOptions ?? ""} --inspect=127.0.0.1:0`.trim();
    net.start(i);
    if (nodeOptions === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = nodeOptions;
  }
  try {
    await net.waitForHeight(all, 2n, 120_000);
    const idleFrom = net.commonHeight(all);
    await net.waitForHeight(all, idleFrom + BigInt(IDLE_BLOCKS), 120_000);
    const loadFrom = net.commonHeight(all);
    // every load tx starts `n<validators>-<node>-`, the finality clients' ones `fin-`
    const loadPrefix = `n${validators}-`;
    const idle = intervals(await headers(net, idleFrom, loadFrom, loadPrefix));

    const useWrk = existsSync(WRK);
    const dir = mkdtempSync(join(tmpdir(), "rxbft-netbench-wrk-"));
    if (RATE !== undefined && !useWrk) throw new Error("NETB_RATE needs wrk (/usr/bin/wrk)");
    const script = useWrk ? wrkScript(dir, RATE === undefined ? undefined : RATE / validators) : "";
    let loadDone = false;
    let profiler: WindowProfiler | undefined;
    if (profiled >= 0) {
      const url = inspectorUrl(net.node(profiled).output);
      if (url === undefined) throw new Error(`node${profiled} printed no inspector address`);
      profiler = await startProfile(url, 1000, ALLOC_PROFILE_FILE === undefined ? undefined : 16384);
    }
    const nodesCpu = () => all.reduce((sum, i) => sum + cpuSecondsOf(net.node(i).child.pid), 0);
    const sentAtStart = P2P_BYTES ? await sentBytes() : undefined;
    const cpuAtStart = nodesCpu();
    const wallAtStart = performance.now();
    const loads = all.map((i) =>
      useWrk
        ? runWrk(script, net.node(i).rpcUrl!, `${loadPrefix}${i}`)
        : runNodeClient(net.node(i).rpcUrl!, `${loadPrefix}${i}`),
    );
    // finality "under load" only while the offer runs: a paced wrk idles out up to 5 s past its
    // schedule, and timing commits then measured an idling network
    const offerEnds = Date.now() + LOAD_SECONDS * 1000;
    const fin = finality(net, validators, () => loadDone || Date.now() > offerEnds);
    const requestsSent = (await Promise.all(loads)).reduce((a, b) => a + b, 0);
    rmSync(dir, { recursive: true, force: true });
    if (profiler !== undefined) {
      if (ALLOC_PROFILE_FILE !== undefined) {
        writeFileSync(ALLOC_PROFILE_FILE, await profiler.stopHeap());
        console.log(`load-window allocation profile of node${profiled}: ${ALLOC_PROFILE_FILE}`);
      }
      writeFileSync(PROFILE_FILE!, await profiler.stop());
      console.log(`load-window CPU profile of node${profiled}: ${PROFILE_FILE}`);
    }
    loadDone = true;
    const underLoad = await fin;
    // the mempools drain: wait until two heights in a row carry no tx (bounded)
    let top = net.commonHeight(all);
    for (let quiet = 0, tries = 0; quiet < 2 && tries < 60; tries++) {
      await net.waitForHeight([0], top + 1n, 60_000);
      top++;
      const [b] = await headers(net, top, top, loadPrefix);
      quiet = b!.txs === 0 ? quiet + 1 : 0;
    }
    const nodeCpuSeconds = nodesCpu() - cpuAtStart;
    const nodeCores = nodeCpuSeconds / ((performance.now() - wallAtStart) / 1000);
    const sentAtEnd = sentAtStart === undefined ? undefined : await sentBytes();
    const window = loadWindow(await headers(net, loadFrom, top, loadPrefix));
    let p2p: Pick<Figures, "p2pSentBytesPerTx" | "blockPartCopies"> = {};
    if (sentAtStart !== undefined && sentAtEnd !== undefined && window.loadTxs > 0) {
      // the window's first block is the one before the load: its bytes were sent before the start
      const blockBytes = (window.blocks as readonly ReadBlock[])
        .slice(1)
        .reduce((sum, b) => sum + b.txBytes, 0);
      const parts =
        (sentAtEnd.get("consensus_BlockPart") ?? 0) - (sentAtStart.get("consensus_BlockPart") ?? 0);
      p2p = {
        p2pSentBytesPerTx: bytesPerTx(sentAtStart, sentAtEnd, window.loadTxs),
        blockPartCopies: blockBytes > 0 ? parts / blockBytes : Number.NaN,
      };
    }
    const loadIntervals = intervals(window.blocks);
    if (PHASES && validators === 4) {
      const lastLoaded = loadFrom + BigInt(window.blocks.length - 1);
      console.log(
        `where the loaded heights ${loadFrom + 1n}..${lastLoaded} went (height-phases.ts, part-arrivals.ts):`,
      );
      // Awaited, not spawnSync: with this process blocked for the scripts' seconds, the nodes closed
      // the finality client's idle keep-alive connections unseen, and its next call failed on one
      // ("fetch failed: other side closed"), so a NETB_PHASES run printed no figures.
      for (const script of ["height-phases.ts", "part-arrivals.ts"])
        await new Promise<void>((done) => {
          const child = spawn(
            process.execPath,
            [
              "--import",
              "tsx",
              join(root, "test", "bench", script),
              ...net.homes,
              "--from",
              String(loadFrom + 1n),
              "--to",
              String(lastLoaded),
            ],
            { cwd: root, stdio: "inherit", timeout: 120_000 },
          );
          child.on("close", () => done());
          child.on("error", () => done());
        });
    }
    // time to finality with the load gone (bounded: FINALITY_CALLS per client or 90 s)
    const idleUntil = Date.now() + 90_000;
    const quiet = await finality(net, validators, () => Date.now() > idleUntil);
    return {
      validators,
      loadTool: useWrk
        ? `wrk -t1 -c${WRK_CONNECTIONS} per node, ${BATCH} txs per JSON-RPC batch${RATE === undefined ? "" : `, paced to ${RATE} tx/s offered in all`}`
        : `node:http client, ${WRK_CONNECTIONS} connections per node, ${BATCH} txs per JSON-RPC batch`,
      txsCommitted: window.loadTxs,
      spanSeconds: window.spanSeconds,
      txPerSecond: window.txPerSecond,
      requestsSent,
      idleIntervalMeanMs: mean(idle),
      idleIntervalP50Ms: quantile(idle, 0.5),
      loadIntervalMeanMs: mean(loadIntervals),
      loadIntervalP50Ms: quantile(loadIntervals, 0.5),
      finalityP50Ms: quantile(quiet.ms, 0.5),
      finalityP99Ms: quantile(quiet.ms, 0.99),
      finalityCalls: quiet.ms.length,
      loadFinalityP50Ms: quantile(underLoad.ms, 0.5),
      loadFinalityP99Ms: quantile(underLoad.ms, 0.99),
      loadFinalityFailed: underLoad.failed,
      nodeCpuSeconds,
      nodeCores,
      ...p2p,
    };
  } finally {
    await net.stopAll();
    killAllNodes();
  }
}

if (process.env.NETB_FOUR_ONLY === "1") {
  // a profiling or A/B aid: the 4-validator network alone, without the baseline beside it
  console.log(`4 validators only (NETB_FOUR_ONLY, no baseline): ${JSON.stringify(await measure(4))}`);
  process.exit(0);
}
const one = await measure(1);
console.log(`1 validator (baseline): ${JSON.stringify(one)}`);
let four: Figures;
try {
  four = await measure(4);
} catch (error) {
  // a network that never got going is a finding, reported with the baseline already measured
  console.log(`4 validators: no figures: ${(error as Error).message.split("\n")[0]}`);
  process.exit(0);
}
const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "n/a");
console.log(
  `load: ${four.loadTool}, ${LOAD_SECONDS} s; default consensus timings (timeout_commit 1 s); mempool.size ${MEMPOOL_SIZE ?? "5000 (default)"}`,
);
console.log("figure                      4 validators   1 validator (baseline)   ratio 4/1");
const row = (name: string, a: number, b: number, d = 0) =>
  console.log(
    `${name.padEnd(28)}${f(a, d).padStart(12)}   ${f(b, d).padStart(22)}   ${f(a / b, 2).padStart(9)}`,
  );
row("committed tx/s", four.txPerSecond, one.txPerSecond);
row("load txs committed", four.txsCommitted, one.txsCommitted);
row("txs sent", four.requestsSent, one.requestsSent);
row("span of loaded blocks s", four.spanSeconds, one.spanSeconds, 1);
row("block interval idle mean ms", four.idleIntervalMeanMs, one.idleIntervalMeanMs);
row("block interval idle p50 ms", four.idleIntervalP50Ms, one.idleIntervalP50Ms);
row("block interval load mean ms", four.loadIntervalMeanMs, one.loadIntervalMeanMs);
row("block interval load p50 ms", four.loadIntervalP50Ms, one.loadIntervalP50Ms);
row("finality p50 ms (no load)", four.finalityP50Ms, one.finalityP50Ms);
row("finality p99 ms (no load)", four.finalityP99Ms, one.finalityP99Ms);
row("finality p50 ms (load)", four.loadFinalityP50Ms, one.loadFinalityP50Ms);
row("finality p99 ms (load)", four.loadFinalityP99Ms, one.loadFinalityP99Ms);
row("commit calls timed out (load)", four.loadFinalityFailed, one.loadFinalityFailed);
row("node CPU s, load to drained", four.nodeCpuSeconds, one.nodeCpuSeconds, 1);
row(
  "node CPU ms per load tx",
  (four.nodeCpuSeconds * 1000) / four.txsCommitted,
  (one.nodeCpuSeconds * 1000) / one.txsCommitted,
  3,
);
row("cores the nodes kept busy", four.nodeCores, one.nodeCores, 2);
console.log(
  `aims (issue 13): ≥ 5,000 tx/s → ${f(four.txPerSecond)}; block interval ≤ 1,100 ms → ${f(four.idleIntervalMeanMs)} idle, ${f(four.loadIntervalMeanMs)} under load`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "network.json"), `${JSON.stringify({ four, one }, null, 2)}\n`);
