// The node's CPU off the main thread, thread by thread (load.bench.ts): each thread's CPU from
// /proc/<pid>/task/<tid>/stat, and what the thread is. Node 20 names none of its threads (all are
// "node" in /proc), so the role is read from the thread's stack, once, by gdb in batch mode: the
// libuv pool (where classic-level runs LevelDB's gets, writes and iterators), LevelDB's one
// background thread (every database's memtable flushes and compactions, one job at a time), V8's
// platform workers (GC helpers, concurrent compilation), the worker threads (signature and log
// workers), the inspector's and the delayed-task scheduler's threads, jemalloc's background thread.
// Then LevelDB's LOG of each database says which database that background thread worked for.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface ThreadTime {
  comm: string;
  /** utime + stime, in ms. */
  ms: number;
}

/** Every live thread's CPU so far, by tid (a thread that ended is missed). */
export function threadTimes(pid: number): Map<number, ThreadTime> {
  const out = new Map<number, ThreadTime>();
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(Number(tid), { comm, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** A thread's role from the frames of its stack (gdb's text), first match wins. */
const ROLE_BY_FRAME: [RegExp, string][] = [
  [/node::NodeMainInstance::Run|node::Start\(/, "main"],
  [/node::worker::Worker::Run/, "worker threads (signatures, log)"],
  [/deps\/uv\/src\/threadpool\.c|uv__queue_work|uv__work_done/, "libuv pool (LevelDB reads, writes)"],
  [/DelayedTaskScheduler/, "V8 delayed-task scheduler"],
  [/WorkerThreadsTaskRunner|PlatformWorker|node::TaskQueue/, "V8 platform (GC helpers, compiler)"],
  [/inspector/, "inspector"],
  [/jemalloc|background_thread_entry/, "jemalloc background"],
  [/classic-level\.node/, "LevelDB background (flushes, compactions)"],
];

/**
 * Each thread's role, by tid, from one `gdb -batch` look at every thread's stack (it stops the
 * node for the second or two gdb takes: call it where a pause spoils no figure). Undefined when gdb
 * is absent or fails; a thread no rule matches is "other (<comm>)".
 */
export function threadRoles(pid: number): Map<number, string> | undefined {
  const gdb = spawnSync(
    "gdb",
    ["-p", String(pid), "-batch", "-nx", "-ex", "set pagination off", "-ex", "thread apply all bt"],
    { encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (gdb.error || gdb.status !== 0 || !gdb.stdout) return undefined;
  const roles = new Map<number, string>();
  for (const block of gdb.stdout.split(/\n(?=Thread \d+ )/)) {
    const head = /^Thread \d+ \(.*?LWP (\d+)\) "([^"]*)"/.exec(block);
    if (!head) continue;
    const role = ROLE_BY_FRAME.find(([re]) => re.test(block))?.[1] ?? `other (${head[2]})`;
    roles.set(Number(head[1]), role);
  }
  return roles;
}

/** CPU-ms per 1,000 committed txs of each thread over a window, with its role, largest first. */
export function threadShares(
  before: Map<number, ThreadTime>,
  after: Map<number, ThreadTime>,
  roles: Map<number, string> | undefined,
  pid: number,
  txs: number,
): { tid: number; role: string; perKTx: number }[] {
  const rows: { tid: number; role: string; perKTx: number }[] = [];
  for (const [tid, t] of after) {
    const spent = t.ms - (before.get(tid)?.ms ?? 0);
    if (spent <= 0) continue;
    const role = tid === pid ? "main" : (roles?.get(tid) ?? `unknown (${t.comm})`);
    rows.push({ tid, role, perKTx: Math.round((spent * 10000) / Math.max(1, txs)) / 10 });
  }
  return rows.sort((a, b) => b.perKTx - a.perKTx);
}

/** The rows summed by role, largest first. */
export function sharesByRole(rows: { role: string; perKTx: number }[]): Record<string, number> {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.role, (sums.get(r.role) ?? 0) + r.perKTx);
  return Object.fromEntries(
    [...sums].sort((a, b) => b[1] - a[1]).map(([role, v]) => [role, Math.round(v * 10) / 10]),
  );
}

/** What LevelDB's background thread did for one database in a window, from its LOG. */
export interface LevelDbWork {
  flushes: number;
  flushedMb: number;
  compactions: number;
  /** Bytes the compactions wrote. */
  compactedMb: number;
  /** Seconds between each job's start and end line: the background thread's time for this database. */
  busySeconds: number;
  /** Writes that waited for a flush or compaction (LOG's "waiting..."). */
  stalls: number;
}

/** LOG's local-time stamp ("2026/11/30-05:01:02.123456") as ms since the epoch. */
function stampMs(line: string): number | undefined {
  const m = /^(\d{4})\/(\d\d)\/(\d\d)-(\d\d):(\d\d):(\d\d)\.(\d+)/.exec(line);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m;
  return (
    new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)).getTime() +
    Number(`0.${frac}`) * 1000
  );
}

/**
 * Each database's flushes and compactions between `fromMs` and `toMs` (epoch ms), from the LOG of
 * every `*.db` directory under `dataDir`. A job is counted where it ends; its busy time runs from
 * its start line (memtable flush: "Level-0 table #N: started"; compaction: "Compacting …").
 */
export function levelDbWork(dataDir: string, fromMs: number, toMs: number): Record<string, LevelDbWork> {
  const out: Record<string, LevelDbWork> = {};
  let names: string[] = [];
  try {
    names = readdirSync(dataDir).filter((n) => n.endsWith(".db"));
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    let log = "";
    try {
      log = readFileSync(join(dataDir, name, "LOG"), "utf8");
    } catch {
      continue;
    }
    const work: LevelDbWork = {
      flushes: 0,
      flushedMb: 0,
      compactions: 0,
      compactedMb: 0,
      busySeconds: 0,
      stalls: 0,
    };
    let started: number | undefined;
    for (const line of log.split("\n")) {
      const at = stampMs(line);
      if (at === undefined) continue;
      if (/Level-0 table #\d+: started|Compacting /.test(line)) {
        started = at;
        continue;
      }
      if (at < fromMs || at > toMs) continue;
      const flushed = /Level-0 table #\d+: (\d+) bytes OK/.exec(line);
      const compacted = /Compacted .* => (\d+) bytes/.exec(line);
      if (flushed) {
        work.flushes++;
        work.flushedMb += Number(flushed[1]) / 1e6;
      } else if (compacted) {
        work.compactions++;
        work.compactedMb += Number(compacted[1]) / 1e6;
      } else if (/waiting\.\.\./.test(line)) {
        work.stalls++;
        continue;
      } else continue;
      if (started !== undefined) work.busySeconds += Math.max(0, at - started) / 1000;
      started = undefined;
    }
    work.flushedMb = Math.round(work.flushedMb * 10) / 10;
    work.compactedMb = Math.round(work.compactedMb * 10) / 10;
    work.busySeconds = Math.round(work.busySeconds * 100) / 100;
    out[name] = work;
  }
  return out;
}
