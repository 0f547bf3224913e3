// What tx_index.db costs LevelDB's background compaction as it grows (issue 19, item 4): heights of
// kvstore-shaped txs (100-byte unique `key=value`, the kvstore's DeliverTx events) indexed through
// the built EventIndexer of each build given, one child process per build, so two layouts compare
// in one run. Per 1,000 txs: CPU of the whole process and of its main thread (the rest is LevelDB's
// background thread and libuv's pool), bytes the process wrote (`wchar` of /proc/self/io: the
// log, the flushed memtables and every compaction's rewrite), and at the end the database's size
// and the process's RSS. A quiet second after the last height lets pending compactions finish.
// The index is opened as the node opens it (openKvIndex: tx_index.db and tx_index_bodies.db with the
// node's default bounds); TXC_INDEX_LEVEL="maxOpenFiles=1000 maxFileSize=2097152" overrides
// tx_index.db's (classic-level's option names, bytes), the same for every build. Each height's
// indexHeight is timed: the last quarter's p50 / p99 / max per 1,000 txs show what a height's index
// costs once the database is large (a node's heights wait for the one before's index).
// TXC_SMAPS_EVERY=<heights> reads the child's /proc/self/smaps every that many heights and sums its
// resident pages by what they map (each database's tables, anonymous memory): the steps and the
// fitted growth in MB per million txs indexed, the unit a short run measures as well as a long one
// (issue 19 item 4: LevelDB maps the tables it reads, and every page touched stays resident while
// the table is open). A build with the tx index's home filter also reports how long the fill that
// a node's start does over the finished index takes.
//   TXC_BUILDS=/tmp/b-main,/tmp/b-memory TXC_HEIGHTS=300 TXC_TXS=10000 \
//     node --import tsx test/bench/tx-index-compaction.bench.ts
// Never fails on time; writes bench-results/tx-index-compaction.json.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { kvstoreDeliverTx } from "../fixtures/store/chain-fixture.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const HEIGHTS = Number(process.env.TXC_HEIGHTS ?? 60);
const TXS = Number(process.env.TXC_TXS ?? 10_000);
const QUIET_MS = 1_000;

interface Figures {
  build: string;
  txs: number;
  seconds: number;
  cpuMsPerKTx: number;
  mainCpuMsPerKTx: number;
  writtenMbPerKTx: number;
  dbMb: number;
  rssMb: number;
  /** indexHeight's wall time over the last quarter of the heights, ms per 1,000 txs. */
  lastQuarterMsPerKTx: { p50: number; p99: number; max: number };
  /** tx_index.db's tables at the end. */
  tables: number;
  /** TXC_SMAPS_EVERY: resident MB by part after each step, and each part's fitted MB per million txs. */
  smaps?: { txs: number; mb: Record<string, number> }[];
  smapsMbPerMTx?: Record<string, number>;
  /** A build with the home filter: its fill over the finished index (keys read, wall ms). */
  homeFilterFill?: { ms: number; keys: number; falsePositiveRate: number };
}

/** Resident MB of /proc/self/smaps by part: each LevelDB database's mapped tables, anonymous, other. */
function residentByPart(): Record<string, number> {
  const parts: Record<string, number> = {};
  let part = "other";
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1]!;
      const db = /\/([^/]+\.db)\/[^/]+\.(?:ldb|sst|log)$/.exec(path);
      part = db
        ? db[1]!
        : path === "" || path.startsWith("[anon") || path === "[heap]"
          ? "anonymous"
          : "other";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) parts[part] = (parts[part] ?? 0) + Number(rss[1]) / 1024;
  }
  for (const k of Object.keys(parts)) parts[k] = Number(parts[k]!.toFixed(1));
  return parts;
}

/** Least-squares slope of each part's MB against txs, per million txs. */
function slopes(steps: { txs: number; mb: Record<string, number> }[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (steps.length < 2) return out;
  const names = new Set(steps.flatMap((s) => Object.keys(s.mb)));
  const mx = steps.reduce((a, s) => a + s.txs, 0) / steps.length;
  for (const name of names) {
    const ys = steps.map((s) => s.mb[name] ?? 0);
    const my = ys.reduce((a, y) => a + y, 0) / ys.length;
    let num = 0;
    let den = 0;
    steps.forEach((s, i) => {
      num += (s.txs - mx) * (ys[i]! - my);
      den += (s.txs - mx) ** 2;
    });
    out[name] = Number(((num / den) * 1e6).toFixed(2));
  }
  return out;
}

/** TXC_INDEX_LEVEL's "name=value ..." as LevelDB options (numbers). */
function indexLevelOverrides(spec: string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const word of (spec ?? "").split(" ").filter((w) => w !== "")) {
    const m = /^(cacheSize|writeBufferSize|maxOpenFiles|maxFileSize)=(\d+)$/.exec(word);
    if (!m)
      throw new Error(
        `TXC_INDEX_LEVEL: "${word}" is not cacheSize|writeBufferSize|maxOpenFiles|maxFileSize=<number>`,
      );
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

const clockTicks = 100;
function threadCpuMs(pid: number, tid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
}
const written = () => Number(/wchar:\s+(\d+)/.exec(readFileSync("/proc/self/io", "utf8"))![1]);
function dirBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
}

/** p50 / p99 / max of the last quarter of the heights' times, per 1,000 txs. */
function lastQuarter(ms: number[], txs: number): { p50: number; p99: number; max: number } {
  const tail = ms.slice(Math.floor((ms.length * 3) / 4)).sort((a, b) => a - b);
  const at = (p: number) => tail[Math.min(tail.length - 1, Math.floor((p / 100) * tail.length))] ?? 0;
  const perK = (x: number) => Number(((x * 1000) / txs).toFixed(1));
  return { p50: perK(at(50)), p99: perK(at(99)), max: perK(tail.at(-1) ?? 0) };
}

async function child(build: string, dir: string): Promise<Figures> {
  const dist = (path: string) => pathToFileURL(join(build, "dist", "src", path)).href;
  const { openKvIndex } = await import(dist("store/open-stores.js"));
  const { DEFAULT_LEVEL_MEMORY } = await import(dist("store/level-database.js"));
  const {
    DB_TX_INDEX_MAX_FILE_SIZE_MB_DEFAULT,
    DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT,
    DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT,
  } = await import(dist("config/config-schema.js"));
  const utf8 = new TextEncoder();
  // As the node opens it (indexer-options.ts): tx_index.db's own table and memtable sizes.
  const mb = 1024 * 1024;
  const indexLevel = {
    ...DEFAULT_LEVEL_MEMORY,
    writeBufferSize: DB_TX_INDEX_WRITE_BUFFER_SIZE_MB_DEFAULT * mb,
    maxFileSize: DB_TX_INDEX_MAX_FILE_SIZE_MB_DEFAULT * mb,
    // A build before db_tx_index_max_open_files keeps the shared bound.
    ...(DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT ? { maxOpenFiles: DB_TX_INDEX_MAX_OPEN_FILES_DEFAULT } : {}),
    ...indexLevelOverrides(process.env.TXC_INDEX_LEVEL),
  };
  const kv = await openKvIndex(dir, DEFAULT_LEVEL_MEMORY, {}, indexLevel);
  const indexer = kv.indexer;
  const heightMs: number[] = [];
  const smapsEvery = Number(process.env.TXC_SMAPS_EVERY ?? 0);
  const smaps: { txs: number; mb: Record<string, number> }[] = [];
  const cpu0 = process.cpuUsage();
  const main0 = threadCpuMs(process.pid, process.pid);
  const bytes0 = written();
  const t0 = performance.now();
  for (let h = 1; h <= HEIGHTS; h++) {
    const txs = [];
    for (let i = 0; i < TXS; i++) {
      const key = randomBytes(24).toString("hex");
      const tx = utf8.encode(`${key}=`.padEnd(100, "v"));
      txs.push({ tx, result: kvstoreDeliverTx(utf8.encode(key)) });
    }
    const started = performance.now();
    await indexer.indexHeight({ height: BigInt(h), txs, beginBlockEvents: [], endBlockEvents: [] });
    heightMs.push(performance.now() - started);
    if (smapsEvery > 0 && h % smapsEvery === 0) smaps.push({ txs: h * TXS, mb: residentByPart() });
  }
  await new Promise((r) => setTimeout(r, QUIET_MS));
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const total = HEIGHTS * TXS;
  const perK = (x: number) => Number(((x * 1000) / total).toFixed(2));
  const figures: Figures = {
    build,
    txs: total,
    seconds: Number(seconds.toFixed(1)),
    cpuMsPerKTx: perK((cpu.user + cpu.system) / 1000),
    mainCpuMsPerKTx: perK(threadCpuMs(process.pid, process.pid) - main0),
    writtenMbPerKTx: Number(((written() - bytes0) / 1024 / 1024 / (total / 1000)).toFixed(3)),
    dbMb: Math.round(dirBytes(join(dir, "tx_index.db")) / 1024 / 1024),
    rssMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    lastQuarterMsPerKTx: lastQuarter(heightMs, TXS),
    tables: readdirSync(join(dir, "tx_index.db")).filter((n) => n.endsWith(".ldb")).length,
    ...(smaps.length > 0 ? { smaps, smapsMbPerMTx: slopes(smaps) } : {}),
  };
  await kv.close();
  // A build with the home filter: how long a node's start-up fill of it takes over this index.
  const reopened = await openKvIndex(dir, DEFAULT_LEVEL_MEMORY, {}, indexLevel);
  if (typeof reopened.indexer.fillHomeFilter === "function") {
    const f0 = performance.now();
    await reopened.indexer.fillHomeFilter();
    const state = reopened.indexer.homeFilterState();
    figures.homeFilterFill = {
      ms: Math.round(performance.now() - f0),
      keys: state?.added ?? 0,
      falsePositiveRate: Number((state?.falsePositiveRate ?? 0).toFixed(5)),
    };
  }
  await reopened.close();
  return figures;
}

if (process.env.TXC_CHILD) {
  const figures = await child(process.env.TXC_CHILD, process.env.TXC_DIR!);
  process.stdout.write(`${JSON.stringify(figures)}\n`);
} else {
  const builds = (process.env.TXC_BUILDS ?? root).split(",");
  const results: (Figures & { load: string })[] = [];
  for (const build of builds) {
    const dir = mkdtempSync(join(tmpdir(), "tx-index-compaction-"));
    const before = loadavg()[0]!.toFixed(2);
    try {
      const run = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url)], {
        env: { ...process.env, TXC_CHILD: build, TXC_DIR: dir },
        encoding: "utf8",
      });
      if (run.status !== 0) throw new Error(`child for ${build} failed: ${run.stderr}`);
      const figures = JSON.parse(run.stdout.trim().split("\n").at(-1)!) as Figures;
      results.push({ ...figures, load: `${before}→${loadavg()[0]!.toFixed(2)}` });
      console.log(
        `${build}: ${figures.txs} txs in ${figures.seconds} s | CPU ${figures.cpuMsPerKTx} ms/1k tx (main ${figures.mainCpuMsPerKTx}) | written ${figures.writtenMbPerKTx} MB/1k tx | db ${figures.dbMb} MB in ${figures.tables} tables | RSS ${figures.rssMb} MB | a height's index, last quarter, ms per 1k tx p50/p99/max ${figures.lastQuarterMsPerKTx.p50}/${figures.lastQuarterMsPerKTx.p99}/${figures.lastQuarterMsPerKTx.max} | load ${results.at(-1)!.load}`,
      );
      for (const step of figures.smaps ?? []) console.log(`  ${step.txs} txs: ${JSON.stringify(step.mb)}`);
      if (figures.smapsMbPerMTx)
        console.log(`  MB per million txs: ${JSON.stringify(figures.smapsMbPerMTx)}`);
      if (figures.homeFilterFill)
        console.log(`  home filter fill at reopen: ${JSON.stringify(figures.homeFilterFill)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(
    join(root, "bench-results", "tx-index-compaction.json"),
    JSON.stringify({ heights: HEIGHTS, txsPerHeight: TXS, results }, null, 2),
  );
}
