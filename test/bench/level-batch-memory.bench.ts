// Native memory of classic-level's batch writes on the main thread (issue 19, item 4): heights of
// 3,000–7,000 txs, each tx written as the tx index writes it (a 300-byte result under its hash and
// six ~90-byte event keys), the batch built 256 txs at a time with an event-loop turn between
// slices as the indexer builds it, ~100-byte buffers kept two heights as a mempool would. Prints
// the growth of glibc's main malloc arena ([heap] in /proc/self/smaps) for the node's way
// (LevelBatch: classic-level's array form, event keys under a one-byte value) beside three
// baselines of the same run: the same allocations with no write; the event keys under zero-length
// values (as the indexer wrote them before: classic-level 3.0 never frees the native copy of an
// empty key or value, ~32 bytes of malloc'd memory each, so the arena grows with every tx); and a
// chained batch (`db.batch()`), whose native WriteBatch lives until V8 collects its JS object.
// Each mode runs in a child process of its own.
//   node --import tsx test/bench/level-batch-memory.bench.ts   (LEVEL_BATCH_HEIGHTS, default 60)
// Never fails on time; writes bench-results/level-batch-memory.json.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ClassicLevel } from "classic-level";
import { EVENT_ENTRY_VALUE } from "../../src/store/indexer/event-indexer.js";
import { LevelBatch } from "../../src/store/level-database.js";

const HEIGHTS = Number(process.env.LEVEL_BATCH_HEIGHTS ?? 60);
const MODES = ["none", "array", "empty", "chained"] as const;
type Mode = (typeof MODES)[number];

function mainArenaMb(): number {
  let kb = 0;
  let inHeap = false;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      inHeap = line.endsWith("[heap]");
      continue;
    }
    const rss = inHeap ? /^Rss:\s+(\d+)/.exec(line) : null;
    if (rss) kb += Number(rss[1]);
  }
  return Math.round(kb / 1024);
}

async function run(mode: Mode): Promise<{ mode: Mode; atTenth: number; atEnd: number }> {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-level-batch-"));
  const db = new ClassicLevel<Uint8Array, Uint8Array>(dir, { keyEncoding: "view", valueEncoding: "view" });
  await db.open();
  const turn = () => new Promise((r) => setImmediate(r));
  const kept: Buffer[][] = [];
  let atTenth = 0;
  for (let h = 0; h < HEIGHTS; h++) {
    const txs = 3000 + Math.floor(Math.random() * 4000);
    const batch = mode === "chained" ? db.batch() : new LevelBatch(db);
    const eventValue = mode === "empty" ? new Uint8Array(0) : EVENT_ENTRY_VALUE;
    const held: Buffer[] = [];
    for (let i = 0; i < txs; i++) {
      // The same keys and values are allocated in every mode; "none" drops them unwritten.
      const put = mode === "none" ? () => undefined : (k: Uint8Array, v: Uint8Array) => batch.put(k, v);
      put(Uint8Array.of(1, ...randomBytes(32)), randomBytes(300));
      for (let e = 0; e < 6; e++) put(randomBytes(90), eventValue);
      held.push(Buffer.from(randomBytes(100)));
      if (i % 256 === 255) await turn();
    }
    if (mode !== "none") await batch.write();
    kept.push(held);
    if (kept.length > 2) kept.shift();
    if (h === Math.floor(HEIGHTS / 10)) atTenth = mainArenaMb();
  }
  const atEnd = mainArenaMb();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  return { mode, atTenth, atEnd };
}

const child = process.argv[2] as Mode | undefined;
if (child) {
  console.log(JSON.stringify(await run(child)));
} else {
  const self = fileURLToPath(import.meta.url);
  const load0 = loadavg()[0]!.toFixed(2);
  const results = MODES.map((mode) => {
    const out = spawnSync(process.execPath, ["--import", "tsx", self, mode], { encoding: "utf8" });
    if (out.status !== 0) throw new Error(`${mode} failed: ${out.stderr}`);
    return JSON.parse(out.stdout.trim().split("\n").at(-1)!) as Awaited<ReturnType<typeof run>>;
  });
  const growth = (r: (typeof results)[number]) => r.atEnd - r.atTenth;
  const [none, array, empty, chained] = results as [
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
    (typeof results)[0],
  ];
  for (const r of results)
    console.log(
      `${r.mode}: main arena ${r.atTenth} MB at height ${Math.floor(HEIGHTS / 10)} → ${r.atEnd} MB at ${HEIGHTS} (+${growth(r)})`,
    );
  console.log(
    `growth (MB), the node's way ${growth(array)} beside no write ${growth(none)}, zero-length event values ${growth(empty)}, chained batch ${growth(chained)}; node's ÷ zero-length values: ${(growth(array) / Math.max(1, growth(empty))).toFixed(2)} | load ${load0}→${loadavg()[0]!.toFixed(2)}`,
  );
  const root = fileURLToPath(new URL("../..", import.meta.url));
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(
    join(root, "bench-results", "level-batch-memory.json"),
    `${JSON.stringify({ heights: HEIGHTS, results }, null, 2)}\n`,
  );
}
