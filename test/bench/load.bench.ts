// One validator under load from wrk (issue 19): the BUILT node (`bin/run.js node`, in-process
// kvstore, default consensus timeouts unless LOAD_TIMEOUT_COMMIT, mempool size LOAD_MEMPOOL_SIZE)
// driven over loopback by wrk, a C client that costs the 2 cores far less than the node does (a
// Node client saturates first and makes every server look equal).
//   1. broadcast_tx_async of unique 100-byte txs (test/bench/wrk/broadcast-tx.lua) over
//      LOAD_CONNECTIONS connections for LOAD_SECONDS (LOAD_RATE > 0 makes it an open-loop offer of
//      that many requests per second, on wrk-pacing.ts's schedule): committed tx/s from the committed heights' num_txs (the node's
//      `committed block … txs=` lines, checked against /blockchain), wrk's latency percentiles
//      and per-thread rate spread, the node's RSS (and V8's heap size, from --trace-gc, so RSS
//      minus heap is native memory) sampled every second (and after the load,
//      idle), the node's CPU per 1,000 committed txs.
//   2. the baseline in the same run, on the same node: GET /health with wrk, same connections.
//   3. broadcast_tx_sync with wrk for LOAD_SYNC_SECONDS: admitted tx/s.
//   4. broadcast_tx_commit, one client, on a second node with timeout_commit = 0: p50/p99 beside
//      broadcast_tx_sync's on that node (LOAD_COMMIT_CALLS calls each).
// Says so and skips when wrk is absent (test/system/packages.txt installs it). CI runs a few
// seconds; the long runs: LOAD_SECONDS=60 (throughput), LOAD_SECONDS=600 LOAD_RATE=10000 (memory).
// LOAD_PROF=<dir> runs the node under --cpu-prof; LOAD_ALLOC_PROF=<file> samples its allocations (alloc-profile.mjs); LOAD_LOG=<file> keeps the node's log and
// LOAD_LOG_LEVEL sets its log_level (state:debug logs each height's commit phases); LOAD_SMAPS_DIR=<dir> keeps the node's
// smaps idle before the load, 30, 60 and 120 s after it, and 60 s into it, every 5 minutes (LOAD_SMAPS_EVERY seconds) and 10 s before its end
// (test/bench/smaps-by-part.mjs sums each copy by database); LOAD_HEAP_SNAPSHOT_DIR=<dir> has the node
// write a V8 heap snapshot there when idle before the load, 60 s into it and at the end of the idle wait after it (--heapsnapshot-signal); LOAD_MALLOC=1 runs the node with the malloc settings
// docs/configuration.md measures (glibc's defaults otherwise). LOAD_NODE_FLAGS="<flags>" passes V8/node flags to the
// node (space-separated, e.g. "--trace-gc-verbose --max-semi-space-size=32"); LOAD_TIMELINE=<file> writes a per-second
// timeline of the async phase (load-timeline.ts: a probe's latency, GC pauses, CPU per thread, heights) and prints
// its worst seconds. LOAD_SET="db_max_file_size_mb=1 mempool.cache_size=20000" sets config.toml keys of the
// load node (a top-level key as it is, a section's as section.key; the value as TOML writes it).
// LOAD_NODE_ENV="NAME=value NAME=value" sets environment variables of the node process only (e.g.
// LD_PRELOAD of another malloc, or MALLOC_ARENA_MAX=1), not of the bench or wrk. LOAD_IDLE_BEFORE_SECONDS (default
// 10) is how long the started node idles before the load: "idle" RSS is read then, "started" right after the start.
// LOAD_RESTART_IDLE_SECONDS=<s> stops the node after its broadcast_tx_sync phase, starts it again on the same
// home and reads its RSS that long after (the idle RSS of a node holding the chain the load made).
// LOAD_KEEP_LOGS=<dir> keeps each LevelDB database's LOG (its compactions and write stalls, timestamped) there
// when the node's home is removed. The async phase's CPU is also printed thread by thread with each
// thread's role (thread-roles.ts: read from the thread's stack by gdb once the window's figures are
// taken; "roles unknown" without gdb), and LevelDB's background work in the window per database
// (flushes, compactions, the seconds each took) from the databases' LOGs.
// Writes bench-results/load.json; never fails on time.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LoadTimeline } from "./load-timeline.js";
import { levelDbWork, sharesByRole, threadRoles, threadShares, threadTimes } from "./thread-roles.js";
import { scheduledDelayLua } from "./wrk-pacing.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** LOAD_NODE_ENV's "NAME=value ..." as an environment object; a word without "=" is an error. */
function nodeEnv(spec: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const word of (spec ?? "").split(" ").filter((w) => w !== "")) {
    const eq = word.indexOf("=");
    if (eq <= 0) throw new Error(`LOAD_NODE_ENV: "${word}" is not NAME=value`);
    env[word.slice(0, eq)] = word.slice(eq + 1);
  }
  return env;
}
const BIN = process.env.LOAD_BIN ?? join(root, "bin", "run.js");
const SECONDS = Number(process.env.LOAD_SECONDS ?? 5);
const SYNC_SECONDS = Number(process.env.LOAD_SYNC_SECONDS ?? Math.min(SECONDS, 5));
const HEALTH_SECONDS = Number(process.env.LOAD_HEALTH_SECONDS ?? 3);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 32);
const THREADS = Number(process.env.LOAD_THREADS ?? 2);
const RATE = Number(process.env.LOAD_RATE ?? 0);
const MEMPOOL_SIZE = Number(process.env.LOAD_MEMPOOL_SIZE ?? 50_000);
const TIMEOUT_COMMIT = process.env.LOAD_TIMEOUT_COMMIT;
const COMMIT_CALLS = Number(process.env.LOAD_COMMIT_CALLS ?? 200);
const IDLE_SECONDS = Number(process.env.LOAD_IDLE_SECONDS ?? 3);
/** How long the started node idles before the load; "idle before" is its RSS then. */
const IDLE_BEFORE_SECONDS = Number(process.env.LOAD_IDLE_BEFORE_SECONDS ?? 10);
const LUA = join(root, "test", "bench", "wrk", "broadcast-tx.lua");
const KEEP_LOGS = process.env.LOAD_KEEP_LOGS;
const RESTART_IDLE_SECONDS = Number(process.env.LOAD_RESTART_IDLE_SECONDS ?? 0);

const wrkFound = spawnSync("wrk", ["--version"], { encoding: "utf8" });
if (wrkFound.error) {
  console.log("load bench skipped: wrk is not on PATH (apt-get install wrk; see test/system/packages.txt)");
  process.exit(0);
}
if (!existsSync(join(root, "dist", "streams", "node.js"))) {
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("npm run build failed");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Number(n.toFixed(d));
const load1 = () => round(loadavg()[0]!, 2);

const COMMITTED = /committed block\s.*height=(\d+) .*txs=(\d+)/;
// --trace-gc's lines start with the isolate's address: the node's worker threads (signature
// verification, the signer's state file) have heaps of their own, summed with the main one's.
const GC_TRACE = /^\[\d+:(0x[0-9a-f]+)\].*-> [\d.]+ \(([\d.]+)\) MB/;
const RPC_LISTENING = /RPC server listening\s.*address=tcp:\/\/([0-9.]+:\d+)/;

/** One RSS sample: s after the load began, RSS split into anonymous and file-backed pages, V8 heap. */
interface RssSample {
  s: number;
  mb: number;
  anonMb: number;
  fileMb: number;
  heapMb: number;
  /**
   * The largest isolate's heap (the main thread's), MB: heapMb sums every isolate, the crypto
   * workers' ~5 MB each included, so it reads ~10 MB above the main heap the idle collection
   * (streams/idle-heap.ts) logs.
   */
  mainHeapMb?: number;
}

/** RSS, RssAnon and RssFile of a process in MB, from /proc/PID/status (zeros once it has exited). */
function memoryOf(pid: number): { mb: number; anonMb: number; fileMb: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return {
      mb: Math.round(kb("VmRSS") / 1024),
      anonMb: Math.round(kb("RssAnon") / 1024),
      fileMb: Math.round(kb("RssFile") / 1024),
    };
  } catch {
    return { mb: 0, anonMb: 0, fileMb: 0 };
  }
}

/**
 * The memory aim's figures (issue 19): RSS at minutes 1, 2, 5 and 10 (the sample nearest each that
 * the run reached), the peak, and the trend: the least-squares slope of RSS in MB/min from minute 2
 * (or the run's second half, if shorter) to the end, so "flat" is a number, not a reading of a list.
 */
function rssSummary(samples: RssSample[]) {
  const end = samples.at(-1)?.s ?? 0;
  const nearest = (s: number) =>
    samples.reduce((best, r) => (Math.abs(r.s - s) < Math.abs(best.s - s) ? r : best));
  const atMinute: Record<string, RssSample> = {};
  for (const minute of [1, 2, 5, 10]) {
    if (samples.length > 0 && minute * 60 <= end + 2) atMinute[`${minute}min`] = nearest(minute * 60);
  }
  const from = end >= 180 ? 120 : Math.floor(end / 2);
  const tail = samples.filter((r) => r.s >= from);
  const slope = (pick: (r: RssSample) => number) => {
    if (tail.length < 2) return 0;
    const mx = tail.reduce((a, r) => a + r.s, 0) / tail.length;
    const my = tail.reduce((a, r) => a + pick(r), 0) / tail.length;
    let num = 0;
    let den = 0;
    for (const r of tail) {
      num += (r.s - mx) * (pick(r) - my);
      den += (r.s - mx) ** 2;
    }
    return den === 0 ? 0 : Number(((num / den) * 60).toFixed(1));
  };
  return {
    atMinute,
    peakMb: Math.max(0, ...samples.map((r) => r.mb)),
    trendFromS: from,
    slopeMbPerMin: {
      rss: slope((r) => r.mb),
      anon: slope((r) => r.anonMb),
      file: slope((r) => r.fileMb),
      heap: slope((r) => r.heapMb),
    },
  };
}

/**
 * LOAD_MALLOC=1: the node runs with the glibc malloc settings docs/configuration.md ("Memory")
 * measures for operators (two arenas, 128 KB mmap and trim thresholds), each only where the
 * bench's own environment has not set it; otherwise glibc's defaults (or the environment's).
 * glibc reads them at the process's start only, so they go into the node's environment.
 */
const TUNED_MALLOC = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
  MALLOC_TRIM_THRESHOLD_: "131072",
};
const MALLOC_DEFAULTS: Record<string, string> =
  process.env.LOAD_MALLOC === "1"
    ? Object.fromEntries(Object.entries(TUNED_MALLOC).map(([k, v]) => [k, process.env[k] ?? v]))
    : {};

/** Seconds after the load at which RSS is reported (those the idle wait reaches). */
const AFTER_MARKS = [30, 60, 120];
/** Seconds into the load at which smaps and the heap snapshot (when asked for) are taken. */
const DURING_MARK = 60;
const HEAP_SNAPSHOT_DIR = process.env.LOAD_HEAP_SNAPSHOT_DIR;
/**
 * Further smaps copies into the load (LOAD_SMAPS_DIR): every 5 minutes or LOAD_SMAPS_EVERY seconds (while more
 * than 10 s of load remain) and 10 s before the end, so the mapped tables and arenas of a long run
 * are seen where it grows.
 */
const SMAPS_EVERY = Number(process.env.LOAD_SMAPS_EVERY ?? 300);
const LATE_SMAPS_MARKS = new Set([
  ...Array.from({ length: Math.floor((SECONDS - 11) / SMAPS_EVERY) }, (_, i) => (i + 1) * SMAPS_EVERY),
  SECONDS - 10,
]);
/** LOAD_SMAPS_DIR=<dir>: a copy of the node's /proc/PID/smaps at each of AFTER_MARKS (made if absent). */
const SMAPS_DIR = process.env.LOAD_SMAPS_DIR;
// Made before the run: a copy that cannot be written is skipped silently (the node may have
// exited), so a missing folder would lose every copy of a ten-minute run without a word.
if (SMAPS_DIR) mkdirSync(SMAPS_DIR, { recursive: true });

function copySmaps(pid: number, file: string) {
  try {
    writeFileSync(file, readFileSync(`/proc/${pid}/smaps`, "utf8"));
  } catch {
    // the node exited meanwhile
  }
}

/**
 * Has the node write a V8 heap snapshot into `dir` (--heapsnapshot-signal) and waits until the
 * file is complete (its size stops changing), so the next step does not run beside the writing.
 */
async function heapSnapshot(pid: number, dir: string): Promise<void> {
  const before = new Set(readdirSync(dir));
  process.kill(pid, "SIGUSR2");
  let last = -1;
  for (let i = 0; i < 120; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    if (file === undefined) continue;
    const size = statSync(join(dir, file)).size;
    if (size > 0 && size === last) return;
    last = size;
  }
}

/** The after-load samples nearest each of AFTER_MARKS that the idle wait reached. */
function afterLoad(samples: RssSample[]): Record<string, RssSample> {
  const end = samples.at(-1)?.s ?? 0;
  const marks: Record<string, RssSample> = {};
  for (const s of AFTER_MARKS) {
    if (s > end + 1) continue;
    marks[`${s}s`] = samples.reduce((best, r) => (Math.abs(r.s - s) < Math.abs(best.s - s) ? r : best));
  }
  return marks;
}

/** A node in a temporary home, its committed heights read from its log as they happen. */
class BenchNode {
  readonly home = mkdtempSync(join(tmpdir(), "rxbft-load-"));
  readonly commits: { height: number; txs: number; at: number }[] = [];
  address = "";
  /** V8's heap size of each isolate after its latest GC (--trace-gc), MB. */
  readonly #heapOf = new Map<string, number>();
  /** V8's heap size, all isolates, after their latest GCs, MB: RSS minus this is native memory. */
  heapTotalMb = 0;
  /** The largest isolate's heap size after its latest GC (the main thread's), MB. */
  get mainHeapMb(): number {
    return Math.round(Math.max(0, ...this.#heapOf.values()));
  }
  tail = "";
  /** The node's log line saying its home filter was filled from tx_index.db (after a restart). */
  homeFilterFilled = "";
  /** Set before start() to have the node's GC lines and the probe gathered (LOAD_TIMELINE). */
  timeline: LoadTimeline | undefined;
  #pending = "";
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  constructor(readonly settings: [section: string, key: string, value: string][]) {}

  async start(prof?: string) {
    this.#init();
    await this.#spawn(prof);
  }

  /** Starts the node again on the home it had (a stop with `keepHome`), its heights kept. */
  async restart() {
    this.commits.length = 0;
    this.address = "";
    await this.#spawn();
  }

  #init() {
    const init = spawnSync(process.execPath, [BIN, "init", "--home", this.home, "--chain-id", "load"], {
      encoding: "utf8",
    });
    if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
    const file = join(this.home, "config", "config.toml");
    let config = readFileSync(file, "utf8");
    for (const [section, key, value] of this.settings) {
      const start = section === "" ? 0 : config.indexOf(`[${section}]`);
      const m = new RegExp(`^${key} = .*$`, "m").exec(config.slice(start));
      if (start < 0 || !m) throw new Error(`config.toml has no [${section}] ${key}`);
      const at = start + m.index;
      config = `${config.slice(0, at)}${key} = ${value}${config.slice(at + m[0].length)}`;
    }
    writeFileSync(file, config);
  }

  async #spawn(prof?: string) {
    const args = [
      "--trace-gc",
      ...(process.env.LOAD_NODE_FLAGS ?? "").split(" ").filter((f) => f !== ""),
      // LOAD_MEMORY_PROBE=<file>: the node's memory part by part every 5 s (memory-probe.mjs).
      ...(process.env.LOAD_MEMORY_PROBE ? ["--import", join(root, "test", "bench", "memory-probe.mjs")] : []),
      // LOAD_ALLOC_PROF=<file>: every allocation sampled, collected ones included (alloc-profile.mjs).
      ...(process.env.LOAD_ALLOC_PROF ? ["--import", join(root, "test", "bench", "alloc-profile.mjs")] : []),
      ...(prof ? ["--cpu-prof", `--cpu-prof-dir=${prof}`] : []),
      ...(HEAP_SNAPSHOT_DIR
        ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${HEAP_SNAPSHOT_DIR}`]
        : []),
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
      ...(process.env.LOAD_LOG_LEVEL ? ["--log_level", process.env.LOAD_LOG_LEVEL] : []),
    ];
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...MALLOC_DEFAULTS,
        MEMORY_PROBE_OUT: process.env.LOAD_MEMORY_PROBE ?? "",
        ALLOC_PROF_OUT: process.env.LOAD_ALLOC_PROF ?? "",
        ...nodeEnv(process.env.LOAD_NODE_ENV),
      },
    });
    this.#child = child;
    if (this.timeline) this.timeline = new LoadTimeline(spawnedAt);
    this.#exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    const logFile = process.env.LOAD_LOG;
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      if (logFile) appendFileSync(logFile, text);
      this.tail = (this.tail + text).slice(-4000);
      this.#pending += text;
      const lines = this.#pending.split("\n");
      this.#pending = lines.pop() ?? "";
      for (const line of lines) {
        const c = COMMITTED.exec(line);
        if (c) this.commits.push({ height: Number(c[1]), txs: Number(c[2]), at: performance.now() });
        this.timeline?.line(line);
        const gc = GC_TRACE.exec(line);
        if (gc) {
          this.#heapOf.set(gc[1]!, Number(gc[2]));
          this.heapTotalMb = Math.round([...this.#heapOf.values()].reduce((a, b) => a + b, 0));
        }
        if (line.includes("tx index home filter filled")) this.homeFilterFilled = line;
        const r = RPC_LISTENING.exec(line);
        if (r) this.address = r[1]!;
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    const deadline = performance.now() + 60_000;
    while (this.address === "" || this.commits.length === 0) {
      if (child.exitCode !== null) throw new Error(`node exited:\n${this.tail}`);
      if (performance.now() > deadline) throw new Error(`node did not start:\n${this.tail}`);
      await sleep(50);
    }
  }

  get pid() {
    return this.#child?.pid ?? 0;
  }

  /** Resident set size in MB, from /proc. */
  rssMb(): number {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, "utf8"));
      return m ? Math.round(Number(m[1]) / 1024) : 0;
    } catch {
      return 0;
    }
  }

  cpuMs(): number {
    try {
      const fields = readFileSync(`/proc/${this.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      return 0;
    }
  }

  /**
   * CPU ms per thread group (the main thread; libuv's pool, where LevelDB's reads and writes run;
   * other threads by their name in /proc: V8's GC and compiler helpers, LevelDB's background
   * compaction, ...): the CPU profile sees only the main thread.
   */
  threadCpuMs(): Map<string, number> {
    const groups = new Map<string, number>();
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${this.pid}/task`);
    } catch {
      return groups;
    }
    for (const tid of tasks) {
      try {
        const stat = readFileSync(`/proc/${this.pid}/task/${tid}/stat`, "utf8");
        // Threads named "node" besides the main one (libuv's pool, helpers) are told apart by tid.
        const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "");
        const name = Number(tid) === this.pid ? "main" : comm === "node" ? "other node threads" : comm;
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
        groups.set(name, (groups.get(name) ?? 0) + ms);
      } catch {
        // the thread ended meanwhile
      }
    }
    return groups;
  }

  async rpc(method: string, params: Record<string, unknown> = {}) {
    const res = await fetch(`http://${this.address}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  }

  async stop(options: { keepHome?: boolean } = {}) {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill("SIGINT");
      const done = await Promise.race([this.#exited.then(() => true), sleep(15_000).then(() => false)]);
      if (!done) child.kill("SIGKILL");
      await this.#exited;
    }
    if (options.keepHome) return;
    if (KEEP_LOGS) keepLevelDbLogs(this.home, KEEP_LOGS);
    rmSync(this.home, { recursive: true, force: true });
  }
}

/**
 * LOAD_KEEP_LOGS=<dir>: each LevelDB database's own LOG (and LOG.old) copied to <dir>/<home>/<db>.LOG
 * before the home is removed: their timestamped lines (memtable flushes, compactions and their
 * level sizes, the "waiting..." of a write stall) line up with the node's log and the timeline, and
 * the home itself (gigabytes of tx index after 10 minutes) is not kept.
 */
function keepLevelDbLogs(home: string, dir: string) {
  const data = join(home, "data");
  if (!existsSync(data)) return;
  const into = join(dir, basename(home));
  mkdirSync(into, { recursive: true });
  for (const name of readdirSync(data).filter((n) => n.endsWith(".db"))) {
    for (const log of ["LOG", "LOG.old"]) {
      const from = join(data, name, log);
      if (existsSync(from)) copyFileSync(from, join(into, `${name}.${log}`));
    }
  }
}

interface WrkResult {
  requests: number;
  perSecond: number;
  latencyMs: Record<string, number>;
  threadRate: { mean: number; stdev: number; max: number };
  errors: string;
}

const toMs = (value: string) => {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(value.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "ms" ? n : m[2] === "s" ? n * 1000 : n * 60_000;
};
const toCount = (value: string) => {
  const m = /^([\d.]+)(k|M)?$/.exec(value.trim());
  return m ? Number(m[1]) * (m[2] === "k" ? 1000 : m[2] === "M" ? 1e6 : 1) : Number.NaN;
};

/** broadcast-tx.lua with its delay() replaced by wrk-pacing.ts's schedule at RATE in all. */
function pacedLua(dir: string): string {
  const own = /function delay\(\)\n {2}return pause\nend\n/;
  const text = readFileSync(LUA, "utf8");
  if (!own.test(text)) throw new Error(`${LUA}: its delay() is not the one this bench replaces`);
  const file = join(dir, "broadcast-tx-paced.lua");
  const intervalMs = (THREADS * 1000) / RATE;
  writeFileSync(
    file,
    scheduledDelayLua(intervalMs, Math.ceil((SECONDS * RATE) / THREADS)) + text.replace(own, ""),
  );
  return file;
}

/** Runs wrk (asynchronously: the bench samples the node meanwhile) and parses its report. */
function wrk(
  url: string,
  seconds: number,
  connections: number,
  lua?: string[],
  script = LUA,
): Promise<WrkResult> {
  const args = ["-t", String(THREADS), "-c", String(connections), "-d", `${seconds}s`, "--latency"];
  if (lua) args.push("-s", script, url, "--", ...lua);
  else args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", reject);
    child.on("exit", () => {
      const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
      const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
      const latencyMs: Record<string, number> = {};
      for (const m of out.matchAll(/^\s+(50|75|90|99)%\s+(\S+)/gm)) latencyMs[`p${m[1]}`] = toMs(m[2]!);
      const rate = /Req\/Sec\s+(\S+)\s+(\S+)\s+(\S+)/.exec(out);
      const errors = [/Socket errors:.*$/m.exec(out)?.[0], /Non-2xx.*$/m.exec(out)?.[0]]
        .filter(Boolean)
        .join("; ");
      if (requests === 0) reject(new Error(`wrk made no requests:\n${out}`));
      else
        resolve({
          requests,
          perSecond: Math.round(perSecond),
          latencyMs,
          // wrk reports per-thread rates; times THREADS for the node's whole rate.
          threadRate: {
            mean: Math.round(toCount(rate?.[1] ?? "0") * THREADS),
            stdev: Math.round(toCount(rate?.[2] ?? "0") * THREADS),
            max: Math.round(toCount(rate?.[3] ?? "0") * THREADS),
          },
          errors,
        });
    });
  });
}

/** Sum of num_txs of heights in (from, to] from /blockchain: the block store's own count. */
async function storedTxs(node: BenchNode, from: number, to: number): Promise<number> {
  let sum = 0;
  for (let min = from + 1; min <= to; min += 20) {
    const max = Math.min(to, min + 19);
    const page = await node.rpc("blockchain", { minHeight: String(min), maxHeight: String(max) });
    for (const m of (page.result?.block_metas ?? []) as { num_txs: string }[]) sum += Number(m.num_txs);
  }
  return sum;
}

/**
 * MB each LevelDB database of the node's home compacted (the "Compacted … => N bytes" lines of
 * its LOG) and flushed from memtables ("Level-0 table #n: N bytes OK"), so far: LevelDB's one
 * background thread does both for every database, beside the main thread. `stalls`: the writes
 * that waited for that thread ("Current memtable full; waiting..." or "Too many L0 files;
 * waiting..."), which a height's commit or index waits behind.
 */
function compactionOf(
  home: string,
): Record<string, { flushedMb: number; compactedMb: number; stalls: number }> {
  const out: Record<string, { flushedMb: number; compactedMb: number; stalls: number }> = {};
  const data = join(home, "data");
  let names: string[] = [];
  try {
    names = readdirSync(data).filter((n) => n.endsWith(".db"));
  } catch {
    return out;
  }
  for (const name of names) {
    let log = "";
    try {
      log = readFileSync(join(data, name, "LOG"), "utf8");
    } catch {
      continue;
    }
    const sum = (re: RegExp) => [...log.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0) / 1e6;
    out[name] = {
      flushedMb: round(sum(/Level-0 table #\d+: (\d+) bytes OK/g)),
      compactedMb: round(sum(/Compacted .* => (\d+) bytes/g)),
      stalls: [...log.matchAll(/; waiting\.\.\./g)].length,
    };
  }
  return out;
}

/** Writes the timeline (JSON lines, one a second, then the collections) and prints its ten worst seconds. */
function reportTimeline(
  timeline: LoadTimeline,
  file: string,
  t1: number,
  commits: { height: number; txs: number; at: number }[],
) {
  const rows = timeline.seconds(t1, commits);
  const collections = timeline.collections(t1);
  writeFileSync(
    file,
    `${[...rows.map((r) => JSON.stringify(r)), ...collections.map((g) => JSON.stringify({ gc: g }))].join("\n")}\n`,
  );
  const probes = timeline.probeLatencies();
  const full = collections.filter((g) => g.kind !== "Scavenge");
  console.log(
    `probe (200/s): ${probes.length} answered, p50/p90/p99/max ${[50, 90, 99].map((p) => round(percentile(probes, p), 2)).join("/")}/${round(probes.at(-1) ?? 0, 1)} ms | main isolate: ${collections.length - full.length} scavenges ${round(collections.filter((g) => g.kind === "Scavenge").reduce((a, g) => a + g.pauseMs, 0))} ms, ${full.length} full ${round(full.reduce((a, g) => a + g.pauseMs, 0))} ms (max ${round(Math.max(0, ...full.map((g) => g.pauseMs)))} ms)`,
  );
  const worst = [...rows].sort((a, b) => b.probeP99Ms - a.probeP99Ms).slice(0, 10);
  for (const r of worst)
    console.log(
      `  s=${r.s} probe p50/p99/max ${r.probeP50Ms}/${r.probeP99Ms}/${r.probeMaxMs} ms (skipped ${r.probeSkipped}) | scavenge ${r.scavenges}×=${r.scavengeMs} ms | full ${r.markCompacts}×=${r.markCompactMs} ms (max ${r.markCompactMaxMs}, marking step ${r.biggestMarkingStepMs}) | heap ${r.heapMb} MB | cpu ${Object.entries(
        r.cpuMs,
      )
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")} | heights ${r.heights.join(" ")}`,
    );
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const settings: [string, string, string][] = [
  ["mempool", "size", String(MEMPOOL_SIZE)],
  ["rpc", "max_open_connections", "0"],
];
if (TIMEOUT_COMMIT) settings.push(["consensus", "timeout_commit", JSON.stringify(TIMEOUT_COMMIT)]);
for (const setting of (process.env.LOAD_SET ?? "").split(" ").filter((s) => s !== "")) {
  const m = /^(?:([a-z_]+)\.)?([a-z_-]+)=(.+)$/.exec(setting);
  if (!m) throw new Error(`LOAD_SET: "${setting}" is not key=value or section.key=value`);
  settings.push([m[1] ?? "", m[2]!, m[3]!]);
}
const node = new BenchNode(settings);
const TIMELINE = process.env.LOAD_TIMELINE;
if (TIMELINE) node.timeline = new LoadTimeline(0);
const latencyNode = new BenchNode([
  ["consensus", "timeout_commit", '"0s"'],
  ["rpc", "timeout_broadcast_tx_commit", '"10s"'],
]);
try {
  await node.start(process.env.LOAD_PROF);
  const url = `http://${node.address}`;
  // RSS right after the start and once idle: a start grows V8's young generation to its maximum and
  // the node's idle collection (idle_heap_collect_seconds) gives it back a few seconds later, so the
  // first figure is the start's, not the idle node's (docs/storage.md "Memory").
  const startedRss = node.rssMb();
  await sleep(IDLE_BEFORE_SECONDS * 1000);
  const idleBefore = node.rssMb();
  const idleBeforeMemory = memoryOf(node.pid);
  const idleBeforeHeap = `heap ${node.heapTotalMb}, main thread's ${node.mainHeapMb}`;
  // The idle node's own copies, so what a load leaves behind is read against them part by part.
  if (SMAPS_DIR) copySmaps(node.pid, join(SMAPS_DIR, "smaps-idle-before.txt"));
  if (HEAP_SNAPSHOT_DIR) await heapSnapshot(node.pid, HEAP_SNAPSHOT_DIR);

  // 1. broadcast_tx_async under wrk, RSS sampled each second.
  // Paced: the tx script with its delay() replaced by a schedule of RATE / THREADS requests per
  // second for each wrk thread (a fixed pause per connection rounds to whole milliseconds: 11,333
  // asked over 34 connections sent 8,430).
  const pacedScript = RATE > 0 ? pacedLua(node.home) : LUA;
  const startIndex = node.commits.length;
  const startHeight = node.commits.at(-1)!.height;
  const cpu0 = node.cpuMs();
  const threads0 = node.threadCpuMs();
  const tids0 = threadTimes(node.pid);
  const wall0 = Date.now();
  const load0 = load1();
  const t0 = performance.now();
  const rss: RssSample[] = [];
  let duringTaken = false;
  node.timeline?.start(node.address, t0, SECONDS);
  const sampling = setInterval(() => {
    node.timeline?.cpu(node.pid);
    const s = Math.round((performance.now() - t0) / 1000);
    rss.push({ s, ...memoryOf(node.pid), heapMb: node.heapTotalMb });
    if (SMAPS_DIR && s > DURING_MARK && LATE_SMAPS_MARKS.delete(s))
      copySmaps(node.pid, join(SMAPS_DIR, `smaps-during-${s}s.txt`));
    if (s < DURING_MARK || duringTaken) return;
    duringTaken = true;
    if (SMAPS_DIR) copySmaps(node.pid, join(SMAPS_DIR, `smaps-during-${s}s.txt`));
    if (HEAP_SNAPSHOT_DIR) process.kill(node.pid, "SIGUSR2");
  }, 1000);
  const asyncRun = await wrk(url, SECONDS, CONNECTIONS, ["broadcast_tx_async", "a", "0"], pacedScript);
  const t1 = performance.now();
  clearInterval(sampling);
  node.timeline?.stop();
  const during = node.commits.slice(startIndex).filter((c) => c.at <= t1);
  const committedDuring = during.reduce((s, c) => s + c.txs, 0);
  const endHeight = during.at(-1)?.height ?? startHeight;
  const stored = await storedTxs(node, startHeight, endHeight);
  const nodeCpu = node.cpuMs() - cpu0;
  const tids1 = threadTimes(node.pid);
  const wall1 = Date.now();
  // CPU-ms per 1k committed txs by thread group, largest first (threads that ended are missed).
  const threadShare: Record<string, number> = {};
  for (const [name, ms] of [...node.threadCpuMs()].sort((a, b) => b[1] - a[1])) {
    const spent = ms - (threads0.get(name) ?? 0);
    if (spent > 0) threadShare[name] = round((spent * 1000) / Math.max(1, committedDuring));
  }
  const intervals = during.slice(1).map((c, i) => c.at - during[i]!.at);
  const commitsPerHeight = during.map((c) => c.txs);
  const asyncLoad = load1();
  const compaction = compactionOf(node.home);
  // Each thread's role from its stack (gdb stops the node a second or two: after the window's
  // figures are read), and what LevelDB's background thread did for each database in the window.
  const roles = threadRoles(node.pid);
  const perThread = threadShares(tids0, tids1, roles, node.pid, committedDuring);
  const byRole = sharesByRole(perThread);
  const levelWork = levelDbWork(join(node.home, "data"), wall0, wall1);

  // Let the mempool drain, then idle RSS, sampled each second from the load's end: whether the
  // node gives back what the load took is read at 30, 60 and 120 s after it.
  const after: RssSample[] = [];
  const afterSampling = setInterval(() => {
    const s = Math.round((performance.now() - t1) / 1000);
    after.push({ s, ...memoryOf(node.pid), heapMb: node.heapTotalMb, mainHeapMb: node.mainHeapMb });
    if (SMAPS_DIR && AFTER_MARKS.includes(s)) copySmaps(node.pid, join(SMAPS_DIR, `smaps-after-${s}s.txt`));
  }, 1000);
  const drainDeadline = performance.now() + 60_000;
  while (performance.now() < drainDeadline) {
    const n = await node.rpc("num_unconfirmed_txs");
    if (Number(n.result?.n_txs ?? n.result?.total ?? 0) === 0) break;
    await sleep(250);
  }
  await sleep(IDLE_SECONDS * 1000);
  clearInterval(afterSampling);
  const idleAfter = node.rssMb();
  if (HEAP_SNAPSHOT_DIR) await heapSnapshot(node.pid, HEAP_SNAPSHOT_DIR);
  const afterMarks = afterLoad(after);

  // 2. GET /health on the same node.
  const health = await wrk(`${url}/health`, HEALTH_SECONDS, CONNECTIONS);
  const healthLoad = load1();

  // 3. broadcast_tx_sync admissions.
  const syncRun = await wrk(url, SYNC_SECONDS, CONNECTIONS, ["broadcast_tx_sync", "s", "0"]);
  const syncLoad = load1();
  // LOAD_RESTART_IDLE_SECONDS: the node stopped and started again on the same home, its RSS read
  // that long after the start: what a node idles at over the chain it holds (the home filter is
  // filled again from tx_index.db's homes, so its pages are the chain's, not the load's).
  let restarted:
    | { idleSeconds: number; mb: number; anonMb: number; fileMb: number; filled: string }
    | undefined;
  if (RESTART_IDLE_SECONDS > 0) {
    await node.stop({ keepHome: true });
    await node.restart();
    await sleep(RESTART_IDLE_SECONDS * 1000);
    const filled = node.homeFilterFilled || "home filter not filled (yet)";
    restarted = { idleSeconds: RESTART_IDLE_SECONDS, ...memoryOf(node.pid), filled };
  }
  await node.stop();

  // 4. broadcast_tx_commit latency, one client, timeout_commit = 0, beside broadcast_tx_sync.
  await latencyNode.start();
  const timed = async (method: string, run: string) => {
    const times: number[] = [];
    let failures = 0;
    for (let i = 0; i < COMMIT_CALLS; i++) {
      const tx = `${run}-${i}=`.padEnd(100, "v");
      const s = performance.now();
      const res = await fetch(`http://${latencyNode.address}/${method}?tx=%22${tx}%22`);
      const body = (await res.json()) as { result?: { code?: number; check_tx?: { code?: number } } };
      times.push(performance.now() - s);
      if (!body.result || Number(body.result.code ?? body.result.check_tx?.code ?? 0) !== 0) failures++;
    }
    times.sort((a, b) => a - b);
    return {
      calls: COMMIT_CALLS,
      failures,
      p50Ms: round(percentile(times, 50), 2),
      p99Ms: round(percentile(times, 99), 2),
    };
  };
  const syncLatency = await timed("broadcast_tx_sync", "ls");
  const commitLatency = await timed("broadcast_tx_commit", "lc");
  const commitLoad = load1();

  const committedPerSecond = Math.round((committedDuring * 1000) / (t1 - t0));
  const result = {
    machine: { cores: (await import("node:os")).cpus().length, node: process.version },
    config: {
      malloc: MALLOC_DEFAULTS,
      connections: CONNECTIONS,
      threads: THREADS,
      seconds: SECONDS,
      rate: RATE,
      mempoolSize: MEMPOOL_SIZE,
    },
    async: {
      loadAverage: [load0, asyncLoad],
      sent: asyncRun.requests,
      wrkPerSecond: asyncRun.perSecond,
      wrkRate: asyncRun.threadRate,
      latencyMs: asyncRun.latencyMs,
      errors: asyncRun.errors,
      heights: during.length,
      committed: committedDuring,
      committedInStore: stored,
      committedPerSecond,
      txsPerHeight: { min: Math.min(...commitsPerHeight), max: Math.max(...commitsPerHeight) },
      blockIntervalMs: {
        p50: Math.round(
          percentile(
            [...intervals].sort((a, b) => a - b),
            50,
          ),
        ),
        max: Math.round(Math.max(0, ...intervals)),
      },
      nodeCpuMsPerKTx: round((nodeCpu * 1000) / Math.max(1, committedDuring)),
      nodeCpuMsPerKTxByThread: threadShare,
      nodeCpuMsPerKTxByRole: byRole,
      nodeCpuMsPerKTxPerThread: perThread,
      levelDbWork: levelWork,
      restarted,
      rssMb: rss,
      rssSummary: rssSummary(rss),
      levelDbMb: compaction,
    },
    rssIdleMb: { started: startedRss, before: idleBefore, after: idleAfter, afterLoad: afterMarks },
    health: { loadAverage: healthLoad, perSecond: health.perSecond, latencyMs: health.latencyMs },
    ratioToHealth: round(committedPerSecond / Math.max(1, health.perSecond), 3),
    sync: {
      loadAverage: syncLoad,
      perSecond: syncRun.perSecond,
      latencyMs: syncRun.latencyMs,
      errors: syncRun.errors,
    },
    commitLatency: {
      loadAverage: commitLoad,
      broadcastTxSync: syncLatency,
      broadcastTxCommit: commitLatency,
    },
  };
  const every = Math.max(1, Math.round(rss.length / 20));
  const rssLine = rss
    .filter((_, i) => i % every === every - 1)
    .map((r) => `${r.s}s:${r.mb}(${r.heapMb})`)
    .join(" ");
  console.log(
    `broadcast_tx_async (wrk ${CONNECTIONS} conns, ${SECONDS} s${RATE ? `, paced ~${RATE}/s` : ""}): committed ${committedPerSecond} tx/s (${committedDuring} txs over ${during.length} heights, store says ${stored}; ${commitsPerHeight.length ? `${result.async.txsPerHeight.min}-${result.async.txsPerHeight.max}` : "-"} per height; interval p50 ${result.async.blockIntervalMs.p50} ms max ${result.async.blockIntervalMs.max} ms) | sent ${asyncRun.perSecond}/s (rate stdev ${asyncRun.threadRate.stdev}) | latency p50/p90/p99 ${asyncRun.latencyMs.p50}/${asyncRun.latencyMs.p90}/${asyncRun.latencyMs.p99} ms | node ${result.async.nodeCpuMsPerKTx} CPU-ms/1k tx | load ${load0}→${asyncLoad}`,
  );
  console.log(
    `node's malloc settings: ${
      Object.entries(MALLOC_DEFAULTS)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ") || "glibc's defaults (or the environment's)"
    }`,
  );
  console.log(
    `node CPU-ms per 1k committed txs by thread: ${Object.entries(threadShare)
      .map(([name, ms]) => `${name} ${ms}`)
      .join(" | ")}`,
  );
  console.log(
    `node CPU-ms per 1k committed txs by role${roles ? "" : " (gdb absent or failed: roles unknown)"}: ${Object.entries(
      byRole,
    )
      .map(([role, ms]) => `${role} ${ms}`)
      .join(" | ")}`,
  );
  console.log(
    `  per thread: ${perThread
      .filter((r) => r.perKTx >= 0.1)
      .map((r) => `${r.tid} ${r.role} ${r.perKTx}`)
      .join(" | ")}`,
  );
  console.log(
    `LevelDB's background thread in the async window, per database: flushes (MB), compactions (MB written), busy s, writes that waited: ${Object.entries(
      levelWork,
    )
      .filter(([, w]) => w.flushes + w.compactions + w.stalls > 0)
      .map(
        ([db, w]) =>
          `${db} ${w.flushes} (${w.flushedMb}), ${w.compactions} (${w.compactedMb}), ${w.busySeconds} s, ${w.stalls}`,
      )
      .join(" | ")}`,
  );
  console.log(
    `LevelDB over the async phase, MB flushed/compacted (writes that waited): ${Object.entries(compaction)
      .map(([db, c]) => `${db} ${c.flushedMb}/${c.compactedMb} (${c.stalls})`)
      .join(" | ")}`,
  );
  console.log(
    `RSS MB (V8 heap MB): started ${startedRss}, idle ${idleBefore} (${IDLE_BEFORE_SECONDS} s later) | ${rssLine} | idle after ${idleAfter}`,
  );
  const summary = result.async.rssSummary;
  console.log(
    `RSS at ${Object.entries(summary.atMinute)
      .map(([m, r]) => `${m} ${r.mb} MB (anon ${r.anonMb}, file ${r.fileMb}, heap ${r.heapMb})`)
      .join(
        " | ",
      )} | peak ${summary.peakMb} MB | slope from ${summary.trendFromS} s: RSS ${summary.slopeMbPerMin.rss} MB/min (anon ${summary.slopeMbPerMin.anon}, file ${summary.slopeMbPerMin.file}, heap ${summary.slopeMbPerMin.heap}) | idle before ${idleBefore}, after ${idleAfter} MB`,
  );
  console.log(
    `RSS after the load (idle before: ${idleBeforeHeap}): ${
      Object.entries(afterMarks)
        .map(
          ([at, r]) =>
            `${at} ${r.mb} MB (anon ${r.anonMb}, file ${r.fileMb}, heap ${r.heapMb}, main thread's ${r.mainHeapMb})`,
        )
        .join(" | ") || `none reached (LOAD_IDLE_SECONDS=${IDLE_SECONDS})`
    }`,
  );
  if (restarted)
    console.log(
      `restarted on the same home, ${restarted.idleSeconds} s later: RSS ${restarted.mb} MB (anon ${restarted.anonMb}, file ${restarted.fileMb}) | idle before the load ${idleBefore} MB (anon ${idleBeforeMemory.anonMb}, file ${idleBeforeMemory.fileMb}), after it ${idleAfter} MB | ${restarted.filled}`,
    );
  console.log(
    `GET /health same node: ${health.perSecond} req/s (load ${healthLoad}) | committed/health ratio ${result.ratioToHealth}`,
  );
  console.log(
    `broadcast_tx_sync (wrk): ${syncRun.perSecond} tx/s admitted, p50/p99 ${syncRun.latencyMs.p50}/${syncRun.latencyMs.p99} ms (load ${syncLoad})`,
  );
  console.log(
    `broadcast_tx_commit (1 client, timeout_commit 0): p50 ${commitLatency.p50Ms} ms p99 ${commitLatency.p99Ms} ms | broadcast_tx_sync p50 ${syncLatency.p50Ms} p99 ${syncLatency.p99Ms} | p50 ratio ${round(commitLatency.p50Ms / Math.max(0.01, syncLatency.p50Ms), 1)} (load ${commitLoad})`,
  );
  if (TIMELINE && node.timeline) reportTimeline(node.timeline, TIMELINE, t1, during);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "load.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await node.stop();
  await latencyNode.stop();
}
