// The open of a log whose last record (our proposal) holds a tx of crafted frame heads (type 1, a
// 64 KiB length, a wrong checksum), torn after the tx: each head is a candidate for the search after
// the tear. With "zero-head", the torn record's own head is zeros too (a power cut that lost its
// first page). Beside it, the same log opened whole (no tear) in the same run, and the ratio.
// Bounded: one log, two opens. Never fails on time.
// node --import tsx test/bench/wal-crafted-tx.bench.ts [repo root, default this one] [tx KiB, 256] [zero-head]
import { mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] ?? fileURLToPath(new URL("../..", import.meta.url));
const kib = Math.min(Number(process.argv[3] ?? 256), 4096);
const zero = process.argv[4] === "zero-head";
// Another checkout's writer may be measured (the code before a change), so it is loaded by path.
const { Wal } = await import(join(root, "src/wal/wal.ts"));
const tx = Buffer.alloc(kib << 10);
for (let p = 0; p + 9 <= tx.length; p += 9) {
  tx.writeUInt32BE(64 << 10, p);
  tx.writeUInt32BE(0xdeadbeef, p + 4);
  tx[p + 8] = 1;
}
const base = mkdtempSync(join(tmpdir(), "rxbft-crafted-"));
try {
  const dir = join(base, "cs.wal");
  const wal = await Wal.open(dir);
  wal.appendInput({ type: "VoteReceived", n: 1 });
  await wal.sync();
  const file = join(dir, readdirSync(dir).sort()[0]!);
  const tornAt = readFileSync(file).length;
  wal.appendInput({ type: "ProposalBlockReaped", txs: [tx, Buffer.alloc(256 << 10)] });
  await wal.close();
  // Baseline in the same run: the same log opened whole (no tear, so no search).
  const w = performance.now();
  await (await Wal.open(dir)).close();
  const wholeMs = performance.now() - w;
  const txAt = readFileSync(file).indexOf(tx.subarray(0, 64), tornAt);
  truncateSync(file, txAt + tx.length + 100);
  if (zero) {
    const b = readFileSync(file);
    b.fill(0, tornAt, tornAt + 13);
    writeFileSync(file, b);
  }
  const t = performance.now();
  const opened = await Wal.open(dir);
  const ms = performance.now() - t;
  const repair = opened.repair?.fault ?? "none";
  console.log(
    JSON.stringify({
      root,
      txKiB: kib,
      zeroHead: zero,
      openMs: +ms.toFixed(1),
      wholeOpenMs: +wholeMs.toFixed(1),
      ratioToWhole: +(ms / wholeMs).toFixed(2),
      repair,
    }),
  );
  await opened.close();
} catch (e) {
  console.log(JSON.stringify({ root, error: (e as Error).message.slice(0, 120) }));
} finally {
  rmSync(base, { recursive: true, force: true });
}
