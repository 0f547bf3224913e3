// The tx index's home filter on its hot path (src/store/indexer/home-filter.ts): each committed tx
// is added once and looked up once (event-indexer.ts #readHomes), nearly always a key never added.
// Fills a filter with FILTER_BENCH_KEYS counts of random home keys, then times `mayHold` over as
// many keys never added and `add`, in ns per key, and counts the "maybe"s (its false positives).
// FILTER_BENCH_OTHER=<path of another home-filter.ts> (e.g. the base build's clone) runs the same
// on that one in the same process, alternated, so the figures print side by side.
// FILTER_BENCH_FILL_KEYS=3000000 also writes that many home keys into a LevelDB in a temporary
// folder and times what a restart does with them: the index's background fill of the filter
// (event-indexer.ts fillHomeFilter, without the node's reopen gate). In-process and bounded (a
// few seconds per count, ~10 s per million keys filled); never fails on time.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { PREFIX_TX_HOMES } from "../../src/store/indexer/index-keys.js";
import { openBinaryLevel } from "../../src/store/level-database.js";

type FilterClass = new (
  bytes: number,
) => {
  add(hash: Uint8Array): void;
  mayHold(hash: Uint8Array): boolean;
  readonly bytes: number;
};

const MB = 1024 * 1024;
const CAP = Number(process.env.FILTER_BENCH_MB ?? 16) * MB;
const COUNTS = (process.env.FILTER_BENCH_KEYS ?? "1000000,6000000").split(",").map(Number);
const PROBES = 1_000_000;
const ROUNDS = 5;

const ours = (await import("../../src/store/indexer/home-filter.js")).HomeFilter as FilterClass;
const otherPath = process.env.FILTER_BENCH_OTHER;
const other = otherPath
  ? ((await import(pathToFileURL(otherPath).href)).HomeFilter as FilterClass)
  : undefined;

/** `count` pseudo-random 8-byte keys from `seed`, in one buffer. */
function keys(count: number, seed: number): Uint8Array[] {
  const bytes = new Uint8Array(count * 8);
  let x = seed >>> 0;
  for (let i = 0; i < bytes.length; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x;
    bytes[i + 1] = x >>> 8;
    bytes[i + 2] = x >>> 16;
    bytes[i + 3] = x >>> 24;
  }
  return Array.from({ length: count }, (_, i) => bytes.subarray(i * 8, i * 8 + 8));
}

function measure(Filter: FilterClass, added: Uint8Array[], absent: Uint8Array[]) {
  const filter = new Filter(CAP);
  let started = performance.now();
  for (const key of added) filter.add(key);
  const addNs = ((performance.now() - started) * 1e6) / added.length;
  let maybe = 0;
  started = performance.now();
  for (const key of absent) if (filter.mayHold(key)) maybe++;
  const lookupNs = ((performance.now() - started) * 1e6) / absent.length;
  return { addNs, lookupNs, falsePositivePercent: (maybe / absent.length) * 100, mb: filter.bytes / MB };
}

const absent = keys(PROBES, 0x9e3779b9);
for (const count of COUNTS) {
  const added = keys(count, count);
  const rows: Record<string, ReturnType<typeof measure>[]> = { ours: [] };
  if (other) rows.other = [];
  for (let round = 0; round < ROUNDS; round++) {
    rows.ours!.push(measure(ours, added, absent));
    if (other) rows.other!.push(measure(other, added, absent));
  }
  for (const [name, runs] of Object.entries(rows)) {
    const f = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(" / ");
    console.log(
      `${count} keys, ${name}: lookup of a key never added ${f(runs.map((r) => r.lookupNs))} ns, add ${f(runs.map((r) => r.addNs))} ns, false positives ${runs[0]!.falsePositivePercent.toFixed(3)} %, ${runs[0]!.mb.toFixed(2)} MB`,
    );
  }
}

const FILL_KEYS = Number(process.env.FILTER_BENCH_FILL_KEYS ?? 0);
if (FILL_KEYS > 0) {
  const dir = mkdtempSync(join(tmpdir(), "home-filter-bench-"));
  try {
    const db = await openBinaryLevel(join(dir, "tx_index.db"));
    const bodies = await openBinaryLevel(join(dir, "tx_index_bodies.db"));
    const position = new Uint8Array(12);
    const hashes = keys(FILL_KEYS, 0x2545f491);
    for (let from = 0; from < FILL_KEYS; from += 10_000) {
      const ops = hashes.slice(from, from + 10_000).map((hash) => {
        const key = new Uint8Array(9);
        key[0] = PREFIX_TX_HOMES;
        key.set(hash, 1);
        return { type: "put" as const, key, value: position };
      });
      await db.batch(ops);
    }
    await db.compactRange(Uint8Array.of(0), Uint8Array.of(0xff));
    const indexer = await EventIndexer.open(db, { bodies, homeFilterBytes: CAP });
    const started = performance.now();
    const fill = await indexer.fillHomeFilter();
    const ms = performance.now() - started;
    const state = indexer.homeFilterState()!;
    console.log(
      `fill at a restart: ${fill.keys} home keys in ${Math.round(ms)} ms (${Math.round(fill.keys / (ms / 1000))} keys/s), ${(state.bytes / MB).toFixed(2)} MB of ${(state.capBytes / MB).toFixed(0)}, false positives ${(state.falsePositiveRate * 100).toFixed(3)} %`,
    );
    await db.close();
    await bodies.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
