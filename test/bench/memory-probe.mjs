// Preloaded into a benched node (`node --import test/bench/memory-probe.mjs …`, load.bench.ts with
// LOAD_MEMORY_PROBE=<file>): every MEMORY_PROBE_SECONDS (default 5) appends one JSON line to the
// file named by MEMORY_PROBE_OUT with process.memoryUsage() and the process's resident memory split
// by mapping from /proc/self/smaps, so RSS can be read part by part (docs/configuration.md "Memory"):
//   mainArenaMb  glibc's main malloc arena ([heap]): the main thread's native allocations (Buffer
//                and ArrayBuffer backing stores, uWS and classic-level buffers) and what malloc
//                keeps of them after they are freed
//   anonMb       every other anonymous mapping: V8's heap pages and the other threads' malloc arenas
//                (LevelDB's memtables and block caches are allocated on the thread pool)
//   fileMb       file-backed pages: the binaries and LevelDB tables read through mmap
// V8's own figures (heapTotal, heapUsed, external, arrayBuffers) say how much of that is the heap.
// The node's worker threads load preloads too; only the main thread samples (the figures are the
// process's, and V8's of the main isolate).
import { appendFileSync, readFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

const out = process.env.MEMORY_PROBE_OUT;
if (out && isMainThread) {
  const started = Date.now();
  const mb = (bytes) => Math.round(bytes / 1048576);
  const sample = () => {
    const parts = { mainArenaMb: 0, anonMb: 0, fileMb: 0 };
    let part;
    for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
      const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
      if (mapping) {
        const name = mapping[1];
        part = name === "[heap]" ? "mainArenaMb" : name.startsWith("/") ? "fileMb" : "anonMb";
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss && part) parts[part] += Number(rss[1]) / 1024;
    }
    const m = process.memoryUsage();
    const line = {
      pid: process.pid,
      s: Math.round((Date.now() - started) / 1000),
      rssMb: mb(m.rss),
      mainArenaMb: Math.round(parts.mainArenaMb),
      anonMb: Math.round(parts.anonMb),
      fileMb: Math.round(parts.fileMb),
      heapTotalMb: mb(m.heapTotal),
      heapUsedMb: mb(m.heapUsed),
      externalMb: mb(m.external),
      arrayBuffersMb: mb(m.arrayBuffers),
    };
    appendFileSync(out, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, Number(process.env.MEMORY_PROBE_SECONDS ?? 5) * 1000).unref();
}
