// The tx index's home filter on its hot path (src/store/indexer/home-filter.ts): each committed tx
// is added once and looked up once (event-indexer.ts #readHomes), nearly always a key never added.
// Fills a filter with FILTER_BENCH_KEYS counts of random home keys, then times `mayHold` over as
// many keys never added and `add`, in ns per key, and counts the "maybe"s (its false positives).
// FILTER_BENCH_OTHER=<path of another home-filter.ts> (e.g. the base build's clone) runs the same
// on that one in the same process, alternated, so the figures print side by side. In-process and
// bounded (a few seconds per count); never fails on time.
import { pathToFileURL } from "node:url";

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
