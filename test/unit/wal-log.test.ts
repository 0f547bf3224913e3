import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { WalError } from "../../src/wal/errors.js";
import { encodeFrame, FrameType, keyedFrames } from "../../src/wal/frame.js";
import { readWal, type WalEntry } from "../../src/wal/log-reader.js";
import { THREAD_POOL_WRITE_BYTES, Wal } from "../../src/wal/wal.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const tempDir = () => join(tempFolder("rxbft-wal-"), "cs.wal");
const input = (i: number) => ({
  type: "VoteReceived",
  seq: i,
  height: BigInt(1 + Math.floor(i / 10)),
  sig: new Uint8Array([i & 0xff]),
});
// Fixed segment keys, so a test can frame records as the writer does.
const KEYS = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
const fixedKeys = { segmentKeys: () => KEYS };
const segmentFile = (dir: string, n = 0) => join(dir, `wal.${String(n).padStart(12, "0")}`);

async function collect(it: AsyncIterable<WalEntry>): Promise<WalEntry[]> {
  const out: WalEntry[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test("inputs after the last end-of-height marker come back after a reopen", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  assert.equal(wal.repair, undefined);
  for (let i = 0; i < 10; i++) wal.appendInput(input(i));
  await wal.endHeight(1n);
  for (let i = 10; i < 15; i++) wal.appendInput(input(i));
  await wal.syncBeforeSigning();
  await wal.close();

  const again = await Wal.open(dir);
  assert.equal(again.repair, undefined);
  assert.equal(again.lastEndHeight, 1n);
  assert.deepEqual(await again.readAfterLastEndHeight(), [10, 11, 12, 13, 14].map(input));
  assert.deepEqual(await again.readAfterEndHeight(1n), [10, 11, 12, 13, 14].map(input));
  assert.equal(await again.readAfterEndHeight(7n), undefined);
  // Appending continues the same height after the reopen.
  again.appendInput(input(15));
  await again.endHeight(2n);
  assert.deepEqual(await again.readAfterLastEndHeight(), []);
  assert.deepEqual(await again.readAfterEndHeight(1n), [10, 11, 12, 13, 14, 15].map(input));
  await again.close();
});

test("a log without any marker gives back every input", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  wal.appendInput(input(0));
  wal.appendInput(input(1));
  assert.deepEqual(await wal.readAfterLastEndHeight(), [input(0), input(1)]);
  await wal.close();
});

test("readAll() and readWal() stream every input and marker in order", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  const expected: WalEntry[] = [];
  for (let h = 1n; h <= 3n; h++) {
    for (let i = 0; i < 3; i++) {
      wal.appendInput(input(i));
      expected.push({ kind: "input", input: input(i) });
    }
    await wal.endHeight(h);
    expected.push({ kind: "end-height", height: h });
  }
  assert.deepEqual(await collect(wal.readAll()), expected);
  await wal.close();
  assert.deepEqual(await collect(readWal(dir)), expected);
});

test("end-of-height markers must increase; appending after close is refused", async () => {
  const wal = await Wal.open(tempDir());
  await wal.endHeight(5n);
  assert.throws(
    () => wal.endHeight(5n),
    (e: unknown) => e instanceof WalError && e.code === "WAL_HEIGHT_NOT_INCREASING",
  );
  assert.throws(() => wal.endHeight(-1n), /outside/);
  await wal.close();
  assert.throws(
    () => wal.appendInput(input(0)),
    (e: unknown) => e instanceof WalError && e.code === "WAL_CLOSED",
  );
});

test("a record over the size bound is refused on append and nothing is written", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir, { maxRecordBytes: 1024, maxSegmentBytes: 4096 });
  assert.throws(
    () => wal.appendInput({ big: new Uint8Array(2000) }),
    (e: unknown) =>
      e instanceof WalError &&
      e.code === "WAL_RECORD_TOO_LARGE" &&
      /exceeds the bound of 1024/.test(e.message),
  );
  await wal.sync();
  assert.equal(statSync(segmentFile(dir)).size, 0);
  await wal.close();
});

test("a torn last record is cut with a report naming file and offset, and the good ones stay", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir, fixedKeys);
  for (let i = 0; i < 5; i++) wal.appendInput(input(i));
  await wal.sync();
  await wal.close();
  const file = segmentFile(dir);
  const goodSize = statSync(file).size;
  // A partial frame: a head announcing 100 bytes, then only 5 of them.
  const torn = encodeFrame(FrameType.Input, new Uint8Array(99), 1024, keyedFrames(KEYS)).subarray(0, 18);
  appendFileSync(file, torn);

  const seen: unknown[] = [];
  for await (const e of readWal(dir, { onTornTail: (t) => seen.push(t) })) assert.equal(e.kind, "input");
  assert.deepEqual(seen, [{ file, offset: goodSize, fault: "short record" }]);
  assert.equal(statSync(file).size, goodSize + 18, "readWal changes nothing");

  const again = await Wal.open(dir, fixedKeys);
  assert.ok(again.repair);
  assert.equal(again.repair.file, file);
  assert.equal(again.repair.offset, goodSize);
  assert.equal(again.repair.droppedBytes, 18);
  assert.match(again.repair.message, new RegExp(`${file} offset ${goodSize}`));
  assert.equal(statSync(file).size, goodSize);
  assert.deepEqual(await again.readAfterLastEndHeight(), [0, 1, 2, 3, 4].map(input));
  again.appendInput(input(5));
  await again.close();
  const third = await Wal.open(dir);
  assert.equal(third.repair, undefined);
  assert.deepEqual(await third.readAfterLastEndHeight(), [0, 1, 2, 3, 4, 5].map(input));
  await third.close();
});

test("a last record with a flipped bit, or zeros after the end, is a torn tail", async () => {
  for (const damage of ["flip", "zeros"] as const) {
    const dir = tempDir();
    const wal = await Wal.open(dir);
    for (let i = 0; i < 4; i++) wal.appendInput(input(i));
    await wal.close();
    const file = segmentFile(dir);
    const bytes = readFileSync(file);
    if (damage === "flip") bytes[bytes.length - 2]! ^= 0x10;
    writeFileSync(file, damage === "flip" ? bytes : Buffer.concat([bytes, Buffer.alloc(4096)]));
    const again = await Wal.open(dir);
    assert.ok(again.repair, damage);
    assert.equal(again.repair.fault, damage === "flip" ? "checksum mismatch" : "length out of bounds");
    assert.deepEqual(
      await again.readAfterLastEndHeight(),
      (damage === "flip" ? [0, 1, 2] : [0, 1, 2, 3]).map(input),
    );
    await again.close();
  }
});

test("a bad record followed by good ones is corruption: WAL_CORRUPT naming file and offset, nothing cut", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  for (let i = 0; i < 6; i++) wal.appendInput(input(i));
  await wal.close();
  const file = segmentFile(dir);
  const bytes = readFileSync(file);
  const headerLength = bytes.readUInt32BE(0);
  const second = 8 + headerLength; // the first record after the segment's header
  bytes[second + 16]! ^= 0xff; // inside its payload (a keyed frame's head is 13 bytes)
  writeFileSync(file, bytes);
  await assert.rejects(Wal.open(dir), (e: unknown) => {
    return (
      e instanceof WalError &&
      e.code === "WAL_CORRUPT" &&
      e.details.file === file &&
      e.details.offset === second &&
      e.message.includes(`${file} offset ${second}: checksum mismatch`)
    );
  });
  assert.equal(statSync(file).size, bytes.length, "a corrupt log is left as it was");
  await assert.rejects(
    collect(readWal(dir)),
    (e: unknown) => e instanceof WalError && e.code === "WAL_CORRUPT",
  );
});

test("segments rotate by size, the oldest are removed, never the one holding the latest marker", async () => {
  const dir = tempDir();
  const opts = { maxRecordBytes: 256, maxSegmentBytes: 1024, maxSegments: 3 };
  const wal = await Wal.open(dir, opts);
  await wal.endHeight(1n);
  // Height 2 spans many segments: nothing from the marker of height 1 on may be removed.
  for (let i = 0; i < 60; i++) wal.appendInput(input(i));
  await wal.sync();
  const during = readdirSync(dir).sort();
  assert.ok(during.length > 3, `a height longer than the limit keeps its segments (${during.length})`);
  assert.ok(during.includes("wal.000000000000"));
  assert.deepEqual(
    await wal.readAfterLastEndHeight(),
    Array.from({ length: 60 }, (_, i) => input(i)),
  );
  await wal.endHeight(2n);
  for (let i = 0; i < 40; i++) wal.appendInput(input(i));
  await wal.endHeight(3n);
  wal.appendInput(input(99));
  await wal.close();
  const after = readdirSync(dir).sort();
  assert.ok(after.length <= 4, `old segments removed (${after})`);
  assert.ok(!after.includes("wal.000000000000"));
  for (const name of after)
    assert.ok(statSync(join(dir, name)).size <= 1024, `${name} within the size bound`);

  const again = await Wal.open(dir, opts);
  assert.equal(again.lastEndHeight, 3n);
  assert.deepEqual(await again.readAfterLastEndHeight(), [input(99)]);
  assert.equal((await again.readAfterEndHeight(2n))?.length, 40);
  await again.close();
});

test("a torn tail in a segment followed only by empty or garbage segments is cut, later files removed", async () => {
  const dir = tempDir();
  const opts = { maxRecordBytes: 256, maxSegmentBytes: 1024, maxSegments: 10 };
  const wal = await Wal.open(dir, opts);
  for (let i = 0; i < 30; i++) wal.appendInput(input(i));
  await wal.close();
  const names = readdirSync(dir).sort();
  assert.ok(names.length >= 2);
  const last = join(dir, names.at(-1)!);
  const beforeLast = join(dir, names.at(-2)!);
  truncateSync(beforeLast, statSync(beforeLast).size - 3);
  writeFileSync(last, Buffer.alloc(100, 0xee));
  const again = await Wal.open(dir, opts);
  assert.ok(again.repair);
  assert.equal(again.repair.file, beforeLast);
  assert.deepEqual(again.repair.removedFiles, [last]);
  const inputs = await again.readAfterLastEndHeight();
  assert.deepEqual(
    inputs,
    Array.from({ length: inputs.length }, (_, i) => input(i)),
  );
  await again.close();
});

test("bad options are refused", async () => {
  await assert.rejects(
    Wal.open(tempDir(), { maxRecordBytes: 1024, maxSegmentBytes: 1000 }),
    /maxSegmentBytes/,
  );
  await assert.rejects(Wal.open(tempDir(), { maxSegments: 0 }), /maxSegments/);
});

test("appendEndHeight buffers the marker without an fsync; the next sync carries it", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  let fsyncs = 0;
  wal.onSynced = () => fsyncs++;
  wal.appendInput(input(0));
  wal.appendEndHeight(1n);
  assert.equal(wal.lastEndHeight, 1n);
  assert.throws(() => wal.appendEndHeight(1n), /not above/);
  wal.appendInput(input(1));
  await wal.flush();
  assert.equal(fsyncs, 0, "no fsync of its own");
  await wal.syncBeforeSigning();
  assert.equal(fsyncs, 1, "one fsync for the marker and what follows it");
  await wal.close();
  const again = await Wal.open(dir);
  assert.equal(again.lastEndHeight, 1n);
  assert.deepEqual(await again.readAfterLastEndHeight(), [input(1)]);
  await again.close();
});

test("many syncs requested together share one fsync pass and all resolve", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  const waits: Promise<void>[] = [];
  for (let i = 0; i < 50; i++) {
    wal.appendInput(input(i));
    waits.push(wal.sync());
  }
  await Promise.all(waits);
  assert.ok(new Set(waits).size < 50, "queued syncs coalesce");
  await wal.close();
  assert.equal((await collect(readWal(dir))).length, 50);
});

test("close syncs what was appended; appends and syncs after close() began are refused", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  wal.appendInput(input(0));
  const closing = wal.close();
  assert.throws(
    () => wal.appendInput(input(1)),
    (e: unknown) => e instanceof WalError && e.code === "WAL_CLOSED",
  );
  await assert.rejects(wal.sync(), (e: unknown) => e instanceof WalError && e.code === "WAL_CLOSED");
  await closing;
  await wal.close();
  assert.deepEqual(await collect(readWal(dir)), [{ kind: "input", input: input(0) }]);
});

test("after a failed write the log refuses everything with WAL_IO (the disk state is unknown)", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  // Close the file behind the log's back so that its next write fails, as a dying disk would.
  await (wal as unknown as { handle: { close(): Promise<void> } }).handle.close();
  wal.appendInput(input(0));
  await assert.rejects(wal.sync(), (e: unknown) => e instanceof WalError && e.code === "WAL_IO");
  assert.throws(
    () => wal.appendInput(input(1)),
    (e: unknown) => e instanceof WalError && e.code === "WAL_IO",
  );
  await assert.rejects(wal.flush(), (e: unknown) => e instanceof WalError && e.code === "WAL_IO");
});

test("a record with a good checksum that does not decode is reported with file and offset", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir, fixedKeys);
  wal.appendInput(input(0));
  await wal.close();
  const file = segmentFile(dir);
  const offset = statSync(file).size;
  // A well-framed input record whose payload is the unknown codec tag 0x0b.
  appendFileSync(file, encodeFrame(FrameType.Input, new Uint8Array([0x0b]), 1024, keyedFrames(KEYS)));
  const again = await Wal.open(dir, fixedKeys);
  assert.equal(again.repair, undefined);
  await assert.rejects(again.readAfterLastEndHeight(), (e: unknown) => {
    return (
      e instanceof WalError &&
      e.code === "WAL_UNDECODABLE" &&
      e.details.file === file &&
      e.details.offset === offset &&
      e.message.includes(`${file} offset ${offset}`)
    );
  });
  await again.close();
});

test("a sync writes the buffered records on the calling thread: only the fdatasync goes to the thread pool", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir);
  await wal.sync();
  const before = statSync(segmentFile(dir)).size;
  // Spies on the log's file handle: every thread-pool write it offers is counted, and the file's
  // size is read at the moment the fdatasync is asked for (the records must be in it by then).
  const handle = (wal as unknown as { handle: FileHandle }).handle;
  const poolWrites: string[] = [];
  for (const name of ["write", "writev", "writeFile", "appendFile"] as const) {
    const original = handle[name].bind(handle) as (...args: unknown[]) => Promise<unknown>;
    (handle as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      poolWrites.push(name);
      return original(...args);
    };
  }
  const sizesAtDatasync: number[] = [];
  const datasync = handle.datasync.bind(handle);
  handle.datasync = () => {
    sizesAtDatasync.push(statSync(segmentFile(dir)).size);
    return datasync();
  };
  for (let i = 0; i < 5; i++) wal.appendInput(input(i));
  await wal.sync();
  assert.deepEqual(poolWrites, [], "no write went through the thread pool");
  assert.equal(sizesAtDatasync.length, 1, "one fdatasync");
  assert.ok(sizesAtDatasync[0]! > before, "the records were in the file when the fdatasync was asked for");
  await wal.close();
});

test("a group of a block's size is written by the thread pool, whole and before its fdatasync", async () => {
  const dir = tempDir();
  const wal = await Wal.open(dir, fixedKeys);
  await wal.sync();
  const before = statSync(segmentFile(dir)).size;
  const handle = (wal as unknown as { handle: FileHandle }).handle;
  const poolWrites: number[] = [];
  const writev = handle.writev.bind(handle);
  handle.writev = ((buffers: NodeJS.ArrayBufferView[], position?: number) => {
    poolWrites.push(buffers.length);
    return writev(buffers, position);
  }) as typeof handle.writev;
  const sizesAtDatasync: number[] = [];
  const datasync = handle.datasync.bind(handle);
  handle.datasync = () => {
    sizesAtDatasync.push(statSync(segmentFile(dir)).size);
    return datasync();
  };
  const big = { type: "ProposalBlockReaped", txs: [new Uint8Array(THREAD_POOL_WRITE_BYTES).fill(3)] };
  wal.appendInput(input(0));
  wal.appendInput(big);
  await wal.sync();
  assert.ok(poolWrites.length >= 1, "written through FileHandle.writev");
  assert.equal(sizesAtDatasync.length, 1);
  assert.ok(
    sizesAtDatasync[0]! > before + THREAD_POOL_WRITE_BYTES,
    "in the file when the fdatasync was asked for",
  );
  // A small group after it is written on the calling thread again.
  poolWrites.length = 0;
  wal.appendInput(input(1));
  await wal.sync();
  assert.deepEqual(poolWrites, []);
  await wal.close();
  const inputs: unknown[] = [];
  for await (const e of readWal(dir)) if (e.kind === "input") inputs.push(e.input);
  assert.deepEqual(inputs, [input(0), big, input(1)]);
});
