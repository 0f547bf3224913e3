// A per-second timeline of a load run (LOAD_TIMELINE=<file> in load.bench.ts), to tell WHEN the
// async latency's tail happens and what the node did in that second: wrk reports percentiles of
// the whole run only. Three sources, each bounded by the run's length:
//   - a probe: one broadcast_tx_async every PROBE_INTERVAL_MS on its own keep-alive sockets, timed
//     from when it was due (a request that waits for a socket counts its wait), so a second in
//     which the node's main thread stalled shows as that second's probe max;
//   - the node's --trace-gc lines (each stamped with ms since its isolate started): the pause of
//     each scavenge and mark-compact, placed on the bench's clock by the node's spawn time;
//   - CPU per thread group from /proc each second (main, LevelDB's background compaction, V8's
//     helpers, libuv's pool), and the heights committed.
import { readdirSync, readFileSync } from "node:fs";
import { Agent, request } from "node:http";

/** One probe every 5 ms: 200 requests/s, 1 % of a 20k offer. */
const PROBE_INTERVAL_MS = 5;
/** Probes in flight at most: past this the probe skips a tick and counts it (a stall that long shows anyway). */
const PROBE_IN_FLIGHT = 16;
/** A probe that takes longer is counted as this long and given up. */
const PROBE_TIMEOUT_MS = 5_000;

// "[pid:0xisolate]   61234 ms: Mark-Compact 300.1 (320.2) -> 200.3 (330.4) MB, 25.30 / 0.10 ms ..."
const GC_LINE =
  /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)[^,]*?([\d.]+) \(([\d.]+)\) -> ([\d.]+) \(([\d.]+)\) MB, ([\d.]+) \/ ([\d.]+) ms(.*)$/;

interface GcEvent {
  isolate: string;
  atMs: number;
  kind: string;
  pauseMs: number;
  heapAfterMb: number;
  /** A full collection's incremental marking steps on the main thread before it (not in pauseMs). */
  markingStepsMs: number;
  biggestStepMs: number;
  reason: string;
}

interface Second {
  s: number;
  probes: number;
  probeP50Ms: number;
  probeP99Ms: number;
  probeMaxMs: number;
  probeSkipped: number;
  scavenges: number;
  scavengeMs: number;
  markCompacts: number;
  markCompactMs: number;
  markCompactMaxMs: number;
  biggestMarkingStepMs: number;
  heapMb: number;
  cpuMs: Record<string, number>;
  heights: string[];
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export class LoadTimeline {
  readonly #gc: GcEvent[] = [];
  readonly #probes: { at: number; ms: number }[] = [];
  readonly #skipped: number[] = [];
  readonly #cpu: { at: number; byThread: Map<string, number> }[] = [];
  #timer: NodeJS.Timeout | undefined;
  #agent: Agent | undefined;
  #inFlight = 0;
  #sent = 0;
  #t0 = 0;

  /** spawnedAt: performance.now() when the node was spawned (its isolate's clock starts about then). */
  constructor(readonly spawnedAt: number) {}

  /** Feeds one line of the node's output (every isolate's; the main one is told apart later). */
  line(text: string): void {
    const m = GC_LINE.exec(text);
    if (!m) return;
    this.#gc.push({
      isolate: m[1]!,
      atMs: this.spawnedAt + Number(m[2]),
      kind: m[3]!,
      pauseMs: Number(m[8]),
      heapAfterMb: Number(m[6]),
      markingStepsMs: Number(/\+ ([\d.]+) ms in \d+ steps/.exec(m[10]!)?.[1] ?? 0),
      biggestStepMs: Number(/biggest step ([\d.]+) ms/.exec(m[10]!)?.[1] ?? 0),
      reason: m[10]!
        .replace(/\(average mu[^)]*\)/, "")
        .trim()
        .slice(0, 160),
    });
  }

  /** Starts the probe against address (host:port) until stop(); t0 is the load's start. */
  start(address: string, t0: number, seconds: number): void {
    this.#t0 = t0;
    this.#agent = new Agent({ keepAlive: true, maxSockets: PROBE_IN_FLIGHT });
    const [host, port] = [
      address.slice(0, address.lastIndexOf(":")),
      Number(address.slice(address.lastIndexOf(":") + 1)),
    ];
    const limit = Math.ceil((seconds * 1000) / PROBE_INTERVAL_MS);
    const begin = performance.now();
    const tick = () => {
      // Due times stay on the schedule even when a tick fires late: a stalled bench or node shows
      // as probes sent late, and their latency counts from when they were due.
      const now = performance.now();
      while (this.#sent < limit && begin + this.#sent * PROBE_INTERVAL_MS <= now) {
        const due = begin + this.#sent * PROBE_INTERVAL_MS;
        this.#sent++;
        if (this.#inFlight >= PROBE_IN_FLIGHT) {
          this.#skipped.push(due);
          continue;
        }
        this.#inFlight++;
        const key = `probe-${this.#sent}=`;
        const path = `/broadcast_tx_async?tx=%22${key.padEnd(100, "p")}%22`;
        const req = request({ host, port, path, agent: this.#agent, timeout: PROBE_TIMEOUT_MS }, (res) => {
          res.resume();
          res.on("end", () => {
            this.#inFlight--;
            this.#probes.push({ at: due, ms: performance.now() - due });
          });
        });
        req.on("timeout", () => req.destroy(new Error("probe timeout")));
        req.on("error", () => {
          this.#inFlight--;
          this.#probes.push({ at: due, ms: PROBE_TIMEOUT_MS });
        });
        req.end();
      }
      if (this.#sent < limit) this.#timer = setTimeout(tick, 1);
    };
    tick();
  }

  /**
   * One sample of the node's CPU ms per thread, cumulative, from /proc: the main thread as "main",
   * the others as "name/tid" (the node's threads are mostly all named "node": LevelDB's compaction,
   * libuv's pool and V8's helpers are told apart by tid, and by when they work).
   */
  cpu(pid: number): void {
    const byThread = new Map<string, number>();
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      return;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        byThread.set(
          Number(tid) === pid ? "main" : `${name}/${tid}`,
          ((Number(fields[11]) + Number(fields[12])) * 1000) / 100,
        );
      } catch {
        // the thread ended meanwhile
      }
    }
    this.#cpu.push({ at: performance.now(), byThread });
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#agent?.destroy();
  }

  /** The timeline, second by second from t0 to t1, with the heights committed (commit times on the bench's clock). */
  seconds(t1: number, commits: { height: number; txs: number; at: number }[]): Second[] {
    const n = Math.ceil((t1 - this.#t0) / 1000);
    const main = this.#mainIsolate();
    const rows: Second[] = [];
    const secondOf = (at: number) => Math.floor((at - this.#t0) / 1000);
    for (let s = 0; s < n; s++) {
      const probes = this.#probes
        .filter((p) => secondOf(p.at) === s)
        .map((p) => p.ms)
        .sort((a, b) => a - b);
      const gcs = this.#gc.filter((g) => g.isolate === main && secondOf(g.atMs) === s);
      const scav = gcs.filter((g) => g.kind === "Scavenge");
      const full = gcs.filter((g) => g.kind !== "Scavenge");
      const before = this.#cpu.filter((c) => secondOf(c.at) <= s - 1).at(-1);
      const after = this.#cpu.filter((c) => secondOf(c.at) <= s).at(-1);
      const cpuMs: Record<string, number> = {};
      if (before && after && before !== after)
        for (const [name, ms] of after.byThread) {
          const d = ms - (before.byThread.get(name) ?? 0);
          if (d > 0) cpuMs[name] = Math.round(d);
        }
      rows.push({
        s,
        probes: probes.length,
        probeP50Ms: r1(pct(probes, 50)),
        probeP99Ms: r1(pct(probes, 99)),
        probeMaxMs: r1(probes.at(-1) ?? 0),
        probeSkipped: this.#skipped.filter((at) => secondOf(at) === s).length,
        scavenges: scav.length,
        scavengeMs: r1(scav.reduce((a, g) => a + g.pauseMs, 0)),
        markCompacts: full.length,
        markCompactMs: r1(full.reduce((a, g) => a + g.pauseMs, 0)),
        markCompactMaxMs: r1(Math.max(0, ...full.map((g) => g.pauseMs))),
        biggestMarkingStepMs: r1(Math.max(0, ...full.map((g) => g.biggestStepMs))),
        heapMb: r1(gcs.at(-1)?.heapAfterMb ?? 0),
        cpuMs,
        heights: commits.filter((c) => secondOf(c.at) === s).map((c) => `${c.height}:${c.txs}`),
      });
    }
    return rows;
  }

  /** The main isolate's collections during [t0, t1], with their pause and reason: for the worst seconds' detail. */
  collections(t1: number): GcEvent[] {
    const main = this.#mainIsolate();
    return this.#gc.filter((g) => g.isolate === main && g.atMs >= this.#t0 && g.atMs <= t1);
  }

  /** The isolate with the most collections: the main thread's (workers' heaps see little traffic). */
  #mainIsolate(): string | undefined {
    const count = new Map<string, number>();
    for (const g of this.#gc) count.set(g.isolate, (count.get(g.isolate) ?? 0) + 1);
    return [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
  }

  /** All probe latencies sorted (the probe's own p50/p99 over the run). */
  probeLatencies(): number[] {
    return this.#probes.map((p) => p.ms).sort((a, b) => a - b);
  }
}
