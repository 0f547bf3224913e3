// Consensus log figures beside same-run baselines:
// - appends/s with one fsync per 100 records (Wal.appendInput + sync) beside raw fs.writeSync +
//   fdatasync of the same framed bytes in the same batches;
// - replay inputs/s (readWal: read, CRC check, decode) beside reading the same files alone;
// - the record codec (tagged binary) beside JSON with tagged bigint/bytes on the same input,
//   the alternative DESIGN.md weighed for it;
// - a block-sized record (WAL_BENCH_BLOCK_MIB, default 24: under the bound of every version, so
//   builds compare): the open of a log that ends in a torn record after it, and of one torn inside
//   it, in ms and in the largest growth of external memory (ArrayBuffers) sampled meanwhile.
// Bounded in count and time; never fails on time. Writes bench-results/wal.json.
import {
  closeSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeFrame, FrameType } from "../../src/wal/frame.js";
import { readWal } from "../../src/wal/log-reader.js";
import { decodeRecord, encodeRecord } from "../../src/wal/record-codec.js";
import { Wal } from "../../src/wal/wal.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RECORDS = 10_000;
const BATCH = 100;
const REPLAY_EXTRA = 20_000;
const fill = (n: number, v: number) => new Uint8Array(n).fill(v);

/** A received precommit as the consensus log holds it. */
const input = (i: number) => ({
  type: "VoteReceived",
  peer: "0123456789abcdef0123456789abcdef01234567",
  time: { seconds: 1_700_000_000n + BigInt(i), nanos: 123456789 },
  vote: {
    type: 2,
    height: 123456n,
    round: 0,
    blockId: { hash: fill(32, 1), partSetHeader: { total: 3, hash: fill(32, 2) } },
    timestamp: { seconds: 1_700_000_000n, nanos: i },
    validatorAddress: fill(20, 3),
    validatorIndex: i % 100,
    signature: fill(64, 4),
  },
});
const inputs = Array.from({ length: RECORDS }, (_, i) => input(i));

const base = mkdtempSync(join(tmpdir(), "rxbft-wal-bench-"));
try {
  // 1. Appends with group commit, beside the raw writes, in alternating slices of 1,000 records
  // so that both see the same disk (other processes' fsyncs make its speed drift).
  const walDir = join(base, "cs.wal");
  const wal = await Wal.open(walDir);
  const frames = inputs.map((x) => encodeFrame(FrameType.Input, encodeRecord(x), 4 << 20));
  const fd = openSync(join(base, "raw.bin"), "a");
  let walMs = 0;
  let rawMs = 0;
  let start = 0;
  for (let slice = 0; slice < RECORDS; slice += 1000) {
    start = performance.now();
    for (let i = slice; i < slice + 1000; i++) {
      wal.appendInput(inputs[i]);
      if ((i + 1) % BATCH === 0) await wal.sync();
    }
    walMs += performance.now() - start;
    start = performance.now();
    for (let i = slice; i < slice + 1000; i += BATCH) {
      writeSync(fd, Buffer.concat(frames.slice(i, i + BATCH)));
      fdatasyncSync(fd);
    }
    rawMs += performance.now() - start;
  }
  await wal.close();
  closeSync(fd);
  const bytes = frames.reduce((n, f) => n + f.length, 0);

  // 2. Replay: scan + CRC + decode beside reading the files alone (best of a few passes, the
  // first of which warms the JIT). The log gets more records first, appended without syncs.
  const more = await Wal.open(walDir);
  for (let i = 0; i < REPLAY_EXTRA; i++) more.appendInput(inputs[i % RECORDS]);
  await more.close();
  const replayRecords = RECORDS + REPLAY_EXTRA;
  // What the baseline must read: the segments as written (headers and frames of the format this
  // version writes, which need not be the baseline's plain frames).
  let replayBytes = 0;
  for (const name of readdirSync(walDir)) replayBytes += statSync(join(walDir, name)).size;
  let replayMs = Number.POSITIVE_INFINITY;
  let readMs = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 5; pass++) {
    start = performance.now();
    let count = 0;
    for await (const entry of readWal(walDir)) if (entry.kind === "input") count++;
    replayMs = Math.min(replayMs, performance.now() - start);
    if (count !== replayRecords) throw new Error(`replay read ${count} inputs, expected ${replayRecords}`);
    start = performance.now();
    let read = 0;
    for (const name of readdirSync(walDir)) read += readFileSync(join(walDir, name)).length;
    readMs = Math.min(readMs, performance.now() - start);
    if (read !== replayBytes) throw new Error(`read ${read} bytes, expected ${replayBytes}`);
  }

  // 3. Codec: tagged binary beside tagged JSON.
  const sample = inputs.slice(0, 2000);
  const jsonEncode = (x: unknown) =>
    Buffer.from(
      JSON.stringify(x, (_k, v) =>
        typeof v === "bigint"
          ? { $n: v.toString() }
          : v instanceof Uint8Array
            ? { $b: Buffer.from(v).toString("base64") }
            : v,
      ),
    );
  const jsonDecode = (b: Uint8Array) =>
    JSON.parse(Buffer.from(b).toString("utf8"), (_k, v) =>
      v && typeof v === "object" && "$n" in v
        ? BigInt(v.$n)
        : v && typeof v === "object" && "$b" in v
          ? new Uint8Array(Buffer.from(v.$b, "base64"))
          : v,
    );
  const timeRound = (enc: (x: unknown) => Uint8Array, dec: (b: Uint8Array) => unknown) => {
    let best = Number.POSITIVE_INFINITY;
    let size = 0;
    for (let pass = 0; pass < 5; pass++) {
      const t = performance.now();
      size = 0;
      for (const x of sample) {
        const b = enc(x);
        size += b.length;
        dec(b);
      }
      best = Math.min(best, performance.now() - t);
    }
    return { perSecond: (sample.length / best) * 1000, bytesPerRecord: size / sample.length };
  };
  const binary = timeRound(encodeRecord, decodeRecord);

  // 4. A block-sized record, then a torn one: the open scans it and searches past the tear.
  const blockMiB = Number(process.env.WAL_BENCH_BLOCK_MIB ?? 24);
  const bigDir = join(base, "big.wal");
  const big = await Wal.open(bigDir);
  big.appendInput({ type: "ProposalBlockReaped", txs: [fill(blockMiB << 20, 7)] });
  await big.sync();
  big.appendInput(input(0));
  await big.close();
  const segment = join(bigDir, readdirSync(bigDir).sort()[0]!);
  const whole = readFileSync(segment);
  const openTorn = async (cut: number) => {
    writeFileSync(segment, whole.subarray(0, cut));
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    }, 1);
    const t = performance.now();
    const opened = await Wal.open(bigDir);
    const ms = performance.now() - t;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    if (!opened.repair) throw new Error("expected a torn tail");
    await opened.close();
    return { ms: +ms.toFixed(1), peakExtraMiB: +((peak - before) / 2 ** 20).toFixed(1) };
  };
  const tornAfter = await openTorn(whole.length - 3);
  const tornInside = await openTorn(Math.floor(whole.length / 2));
  const json = timeRound(jsonEncode, jsonDecode);

  const results = {
    records: RECORDS,
    recordBytes: Math.round(bytes / RECORDS),
    appendsPerSecond: Math.round((RECORDS / walMs) * 1000),
    rawWriteFdatasyncPerSecond: Math.round((RECORDS / rawMs) * 1000),
    appendRatio: +(rawMs / walMs).toFixed(3),
    replayRecords,
    replayInputsPerSecond: Math.round((replayRecords / replayMs) * 1000),
    readFilesOnlyRecordsPerSecond: Math.round((replayRecords / readMs) * 1000),
    replayRatio: +(readMs / replayMs).toFixed(3),
    codecBinaryRoundTripsPerSecond: Math.round(binary.perSecond),
    codecBinaryBytesPerRecord: Math.round(binary.bytesPerRecord),
    codecJsonRoundTripsPerSecond: Math.round(json.perSecond),
    codecJsonBytesPerRecord: Math.round(json.bytesPerRecord),
    codecRatio: +(binary.perSecond / json.perSecond).toFixed(3),
    blockRecordMiB: blockMiB,
    openTornAfterBlock: tornAfter,
    openTornInsideBlock: tornInside,
  };
  console.log(
    `append, fsync per ${BATCH}: ${results.appendsPerSecond} records/s vs raw writeSync+fdatasync ${results.rawWriteFdatasyncPerSecond}/s (ratio ${results.appendRatio})`,
  );
  console.log(
    `replay (read + CRC + decode): ${results.replayInputsPerSecond} inputs/s vs reading the files alone ${results.readFilesOnlyRecordsPerSecond} records/s (ratio ${results.replayRatio})`,
  );
  console.log(
    `record codec encode+decode: binary ${results.codecBinaryRoundTripsPerSecond}/s (${results.codecBinaryBytesPerRecord} B) vs tagged JSON ${results.codecJsonRoundTripsPerSecond}/s (${results.codecJsonBytesPerRecord} B) (ratio ${results.codecRatio})`,
  );
  console.log(
    `open after a ${blockMiB} MiB record: torn record after it ${tornAfter.ms} ms (+${tornAfter.peakExtraMiB} MiB), torn inside it ${tornInside.ms} ms (+${tornInside.peakExtraMiB} MiB)`,
  );
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "wal.json"), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  rmSync(base, { recursive: true, force: true });
}
