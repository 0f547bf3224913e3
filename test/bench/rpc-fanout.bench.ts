// WebSocket fan-out on a running node (issue 19 item 6): 1,000 subscribers each with its own
// filtered query (`tm.event='Tx' AND app.key='k<N>'`) plus 10 firehose subscribers
// (`tm.event='Tx'`), while wrk offers broadcast_tx_async of unique ~100-byte kvstore txs
// `k<N>=<run>-<i>vvv…` at a paced rate (Lua `delay()`), first 3,000 tx/s, then 10,000 tx/s. At
// each rate the same node runs a phase without subscribers (the baseline) and one with them:
// committed tx/s over the phase (from wrk's first request until the mempool is empty) and the
// node's CPU time per committed tx, side by side as ratios. With subscribers, every committed tx
// must reach all 10 firehose subscribers and the one filtered subscriber of its key: the firehose
// sets are compared with each other and with the committed count, each filtered subscriber with
// the firehose's txs of its key; missing, extra and cancelled subscriptions are printed.
// The clients are cheap on purpose: wrk (C) for the load, and one process of its own
// (fanout-client.mjs: raw WebSocket frames over net sockets, each message's tx found by a byte
// scan, no JSON parse) holding the 1,010 connections; its CPU time is printed beside the node's.
// Env: FANOUT_SECONDS (per phase, default 3; 60 for the run), FANOUT_RATES ("3000,10000"),
// FANOUT_FILTERED (1000), FANOUT_FIREHOSE (10), FANOUT_PROF=<dir> runs the node under --cpu-prof. Says so and skips without wrk.
// Writes bench-results/rpc-fanout.json; never fails on time.
import { type ChildProcess, fork, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BenchNode, buildIfMissing, findWrk, load, root, round, sleep } from "./rpc-bench-node.js";

const SECONDS = Number(process.env.FANOUT_SECONDS ?? 3);
const RATES = (process.env.FANOUT_RATES ?? "3000,10000").split(",").map(Number);
const FILTERED = Number(process.env.FANOUT_FILTERED ?? 1000);
const FIREHOSE = Number(process.env.FANOUT_FIREHOSE ?? 10);
const TX_BYTES = 100;
const DRAIN_LIMIT_MS = 120_000;

const wrk = findWrk();
if (wrk === undefined) {
  console.log("rpc-fanout: wrk is not installed (apt-get install wrk, or `npm test`'s pretest); skipped");
  process.exit(0);
}
buildIfMissing();

/**
 * Unique txs offered at a rate: every request gets the next slot of a schedule 1/rate apart
 * (wrk's LuaJIT reads the monotonic clock through its FFI), and `delay()` holds its connection
 * until that slot; enough connections for answers 50 ms slow (wrk sends one request per
 * connection at a time) keep the offer up on a loaded machine.
 */
function luaScript(): string {
  return `
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } fanout_timespec;
int clock_gettime(int clk_id, fanout_timespec *tp);
]]
local ts = ffi.new("fanout_timespec")
local function nowMs()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end
local n = 0
local run = os.getenv("FANOUT_RUN")
local gap = 1000 / tonumber(os.getenv("FANOUT_RATE"))
local keys = tonumber(os.getenv("FANOUT_KEYS"))
local pad = string.rep("v", ${TX_BYTES})
local nextSlot = 0
request = function()
  n = n + 1
  local tx = "k" .. (n % keys) .. "=" .. run .. "-" .. n
  tx = tx .. string.sub(pad, 1, math.max(0, ${TX_BYTES} - #tx))
  return wrk.format("GET", "/broadcast_tx_async?tx=%22" .. tx .. "%22")
end
delay = function()
  local now = nowMs()
  if nextSlot < now then nextSlot = now end
  local wait = nextSlot - now
  nextSlot = nextSlot + gap
  return math.floor(wait)
end
`;
}

/** wrk offering `rate` req/s for SECONDS, asynchronously (the subscribers keep reading meanwhile). */
function offer(url: string, script: string, rate: number, run: string): Promise<string> {
  const connections = Math.max(1, Math.ceil((rate * 50) / 1000));
  return new Promise((resolve) => {
    const child = spawn(wrk as string, ["-t1", `-c${connections}`, `-d${SECONDS}s`, "-s", script, url], {
      env: { ...process.env, FANOUT_RUN: run, FANOUT_RATE: String(rate), FANOUT_KEYS: String(FILTERED) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("exit", () => resolve(output));
  });
}

/** A process's user and system CPU time so far, ms, from /proc (clock ticks of 10 ms). */
function cpuSplitMs(pid: number | undefined): { user: number; sys: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { user: Number(fields[11]) * 10, sys: Number(fields[12]) * 10 };
  } catch {
    return { user: 0, sys: 0 };
  }
}

/** The subscribers' process (fanout-client.mjs): one request, its one answer. */
class SubscriberClient {
  private readonly child: ChildProcess = fork(join(root, "test", "bench", "fanout-client.mjs"), [], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error("the subscribers' client exited"));
      this.child.once("exit", onExit);
      this.child.once("message", (reply) => {
        this.child.off("exit", onExit);
        resolve(reply as T);
      });
      this.child.send(message);
    });
  }
  /** its CPU time so far, ms, from /proc (it may be too busy to answer quickly) */
  cpuMs(): number {
    const { user, sys } = cpuSplitMs(this.child.pid);
    return user + sys;
  }
  stop(): void {
    this.child.kill("SIGKILL");
  }
}

interface Report {
  truth: number;
  delivered: number;
  missing: number;
  extra: number;
  mismatched: number;
  cancelled: number;
}

const node = new BenchNode({
  "mempool.size": "200000",
  "rpc.max_open_connections": "0",
  "rpc.max_subscription_clients": String(FILTERED + FIREHOSE + 10),
  // A firehose subscriber takes a whole block's Tx events at once (10,000 at 10k tx/s):
  // Tendermint's default of 200 would cancel it (as v0.34 does when it falls that far behind).
  "rpc.experimental_subscription_buffer_size": "50000",
  "rpc.experimental_websocket_write_buffer_size": "50000",
});
const client = new SubscriberClient();
try {
  await node.start(process.env.FANOUT_PROF);
  const script = join(node.home, "fanout.lua");
  writeFileSync(script, luaScript());
  const url = `http://${node.address}`;
  const mempoolSize = async () => {
    const reply = (await (await fetch(`${url}/num_unconfirmed_txs`)).json()) as { result: { total: string } };
    return Number(reply.result.total);
  };
  // Counted by the app, not read from the node's log, which this process may read late under load.
  const appTxs = async () => {
    const reply = (await (await fetch(`${url}/abci_info`)).json()) as {
      result: { response: { data: string } };
    };
    return Number((JSON.parse(reply.result.response.data) as { size: number }).size);
  };
  const chainHeight = async () => {
    const reply = (await (await fetch(`${url}/status`)).json()) as {
      result: { sync_info: { latest_block_height: string } };
    };
    return Number(reply.result.sync_info.latest_block_height);
  };

  const phase = async (rate: number, run: string) => {
    const txs0 = await appTxs();
    const cpu0 = node.cpuMs();
    const split0 = cpuSplitMs(node.pid);
    const t0 = performance.now();
    const wrkOut = await offer(url, script, rate, run);
    const drainStart = performance.now();
    const deadline = performance.now() + DRAIN_LIMIT_MS;
    while ((await mempoolSize()) > 0 && performance.now() < deadline) await sleep(100);
    const drained = performance.now();
    // the block holding the last txs is committed once the next one is
    const h = await chainHeight();
    while ((await chainHeight()) <= h + 1 && performance.now() < deadline) await sleep(100);
    // from wrk's first request until the mempool held none of the phase's txs
    const ms = drained - t0;
    const committed = (await appTxs()) - txs0;
    const cpu = node.cpuMs() - cpu0;
    const split = cpuSplitMs(node.pid);
    const sent = Number(/(\d+) requests in/.exec(wrkOut)?.[1] ?? 0);
    return {
      drainMs: round(drained - drainStart, 0),
      offeredPerSecond: round(sent / SECONDS, 0),
      committed,
      committedPerSecond: round((committed * 1000) / ms, 0),
      nodeCpuUsPerTx: committed > 0 ? round((cpu * 1000) / committed, 1) : 0,
      // the kernel's share: on loopback a send also runs the receiver's TCP path
      nodeSysUsPerTx: committed > 0 ? round(((split.sys - split0.sys) * 1000) / committed, 1) : 0,
    };
  };

  const loadBefore = load();
  const results = [];
  for (const rate of RATES) {
    const baseline = await phase(rate, `b${rate}`);
    const connected = await client.ask<{ ms: number }>({
      op: "connect",
      address: node.address,
      filtered: FILTERED,
      firehose: FIREHOSE,
    });
    const connectMs = round(connected.ms, 0);
    const clientCpu0 = client.cpuMs();
    const withSubs = await phase(rate, `s${rate}`);
    // the last messages may still be in flight: wait until the firehose holds every committed tx
    const waitUntil = performance.now() + 60_000;
    while (performance.now() < waitUntil) {
      const { firehose } = await client.ask<{ firehose: number[] }>({ op: "counts" });
      if (firehose.every((count) => count >= withSubs.committed)) break;
      await sleep(100);
    }
    await sleep(200);
    const clientCpuMs = client.cpuMs() - clientCpu0;
    const report = await client.ask<Report>({ op: "report", committed: withSubs.committed });
    const { delivered, missing, extra, mismatched, cancelled } = report;
    await client.ask({ op: "close" });
    await sleep(500);
    const result = {
      offeredRate: rate,
      baseline,
      withSubscribers: {
        ...withSubs,
        delivered,
        expected: withSubs.committed * (FIREHOSE + 1),
        missing,
        extra,
        mismatched,
        cancelled,
        connectMs,
        clientCpuMs: round(clientCpuMs, 0),
        clientCpuUsPerMessage: delivered > 0 ? round((clientCpuMs * 1000) / delivered, 1) : 0,
      },
      committedRatio: round(withSubs.committedPerSecond / baseline.committedPerSecond, 2),
      cpuPerTxRatio: round(withSubs.nodeCpuUsPerTx / baseline.nodeCpuUsPerTx, 2),
    };
    results.push(result);
    console.log(
      `rpc-fanout @ ${rate} tx/s offered for ${SECONDS}s: no subscribers ${baseline.committedPerSecond} committed tx/s, ${baseline.nodeCpuUsPerTx} µs node CPU/tx (${baseline.nodeSysUsPerTx} system) | ${FILTERED} filtered + ${FIREHOSE} firehose: ${withSubs.committedPerSecond} committed tx/s (${result.committedRatio}×), ${withSubs.nodeCpuUsPerTx} µs node CPU/tx (${result.cpuPerTxRatio}×, ${withSubs.nodeSysUsPerTx} system); ${withSubs.committed} committed, ${delivered}/${result.withSubscribers.expected} messages delivered/expected, ${missing} missing, ${extra} extra, ${mismatched} mismatched, ${cancelled} subscriptions cancelled; subscribers' client CPU ${result.withSubscribers.clientCpuMs} ms (${result.withSubscribers.clientCpuUsPerMessage} µs/message)`,
    );
  }
  const loadAfter = load();
  console.log(`  load average ${loadBefore} -> ${loadAfter}`);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(
    join(root, "bench-results", "rpc-fanout.json"),
    `${JSON.stringify({ seconds: SECONDS, filtered: FILTERED, firehose: FIREHOSE, loadBefore, loadAfter, results }, null, 2)}\n`,
  );
} finally {
  client.stop();
  await node.stop();
}
