// Native memory of classic-level's batch writes on the main thread (issue 19, item 4): heights of
// 3,000–7,000 txs, each tx written as the tx index writes it (a 300-byte result under its hash and
// six ~90-byte event keys), the event loop turning every 500 txs, ~100-byte buffers kept two heights
// as a mempool would. Prints the growth of glibc's main malloc arena ([heap] in /proc/self/smaps)
// for one batch per height, beside two baselines of the same run: the same allocations with no
// write, and the same writes in batches of 500 txs. Runs each mode in a child process of its own.
//   node --import tsx test/bench/level-batch-memory.bench.ts   (LEVEL_BATCH_HEIGHTS, default 60)
// Never fails on time; writes bench-results/level-batch-memory.json.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ClassicLevel } from "classic-level";

const HEIGHTS = Number(process.env.LEVEL_BATCH_HEIGHTS ?? 60);
const MODES = ["none", "height", "split"] as const;
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
    let ops: { type: "put"; key: Uint8Array; value: Uint8Array }[] = [];
    const held: Buffer[] = [];
    for (let i = 0; i < txs; i++) {
      ops.push({ type: "put", key: Uint8Array.of(1, ...randomBytes(32)), value: randomBytes(300) });
      for (let e = 0; e < 6; e++) ops.push({ type: "put", key: randomBytes(90), value: new Uint8Array(0) });
      held.push(Buffer.from(randomBytes(100)));
      if (i % 500 === 499) {
        if (mode === "split") {
          await db.batch(ops);
          ops = [];
        }
        await turn();
      }
    }
    if (mode !== "none") await db.batch(ops);
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
  const [none, height, split] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]];
  for (const r of results)
    console.log(
      `${r.mode}: main arena ${r.atTenth} MB at height ${Math.floor(HEIGHTS / 10)} → ${r.atEnd} MB at ${HEIGHTS} (+${growth(r)})`,
    );
  console.log(
    `growth, one batch per height ÷ no write: ${(growth(height) / Math.max(1, growth(none))).toFixed(1)}; batches of 500 txs ÷ no write: ${(growth(split) / Math.max(1, growth(none))).toFixed(1)} | load ${load0}→${loadavg()[0]!.toFixed(2)}`,
  );
  const root = fileURLToPath(new URL("../..", import.meta.url));
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(
    join(root, "bench-results", "level-batch-memory.json"),
    `${JSON.stringify({ heights: HEIGHTS, results }, null, 2)}\n`,
  );
}
