import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { MAX_BLOCK_SIZE_BYTES, maxDataBytesNoEvidence } from "../../src/types/block-limits.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { WalError } from "../../src/wal/errors.js";
import { encodeFrame, FrameType } from "../../src/wal/frame.js";
import { DEFAULT_MAX_RECORD_BYTES } from "../../src/wal/log-reader.js";
import { RECORD_ENVELOPE_BYTES } from "../../src/wal/record-bound.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import { Wal } from "../../src/wal/wal.js";

const MiB = 1024 * 1024;

function reaped(txs: readonly Uint8Array[]) {
  return {
    type: "ProposalBlockReaped",
    time: { seconds: 1_700_000_000n, nanos: 0 },
    height: 123_456n,
    round: 0,
    txs,
    evidence: [],
  };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "wal-record-bound-"));
}

// Our proposal's reaped txs are logged as one record: a full block at the default max_bytes must
// fit the default bound, or a validator under load stops with WAL_RECORD_TOO_LARGE.
for (const txBytes of [100, 1000]) {
  test(`a ProposalBlockReaped filling a default-params block with ${txBytes}-byte txs fits the default record bound`, () => {
    const dataBytes = maxDataBytesNoEvidence(Number(defaultConsensusParams().block.maxBytes), 1);
    // Each tx in the block's protobuf data costs its bytes, a tag and a length varint.
    const perTx = txBytes + 1 + (txBytes < 128 ? 1 : 2);
    const tx = new Uint8Array(txBytes).fill(7);
    const txs = new Array<Uint8Array>(Math.floor(dataBytes / perTx)).fill(tx);
    const record = encodeRecord(reaped(txs));
    assert.doesNotThrow(() => encodeFrame(FrameType.Input, record, DEFAULT_MAX_RECORD_BYTES));
  });
}

test("a tx costs the record exactly what it costs the block's protobuf data, at every length width", () => {
  const envelope = encodeRecord(reaped([])).length;
  for (const size of [0, 1, 2, 100, 126, 127, 128, 129, 16_383, 16_384, 70_000]) {
    const txs = new Array<Uint8Array>(50).fill(new Uint8Array(size));
    const varint = size < 0x80 ? 1 : size < 0x4000 ? 2 : 3;
    // The array's count (0 or 50) is one byte either way: all the growth is the txs' own cost.
    assert.equal(
      encodeRecord(reaped(txs)).length - envelope,
      50 * (1 + varint + size),
      `txs of ${size} bytes`,
    );
  }
});

test("the default bound holds a block at the protocol's 100 MiB, at five record bytes per block byte, with its envelope", () => {
  // The envelope at its widest: the largest height, round and time the fields can hold.
  const widest = encodeRecord({
    ...reaped([]),
    height: (1n << 63n) - 1n,
    round: 2 ** 31 - 1,
    time: { seconds: 253_402_300_799n, nanos: 999_999_999 },
  });
  assert.ok(
    widest.length + 2 * 5 < RECORD_ENVELOPE_BYTES,
    `envelope ${widest.length} bytes and two list counts`,
  );
  assert.equal(DEFAULT_MAX_RECORD_BYTES, 5 * MAX_BLOCK_SIZE_BYTES + RECORD_ENVELOPE_BYTES);
});

test("a record of exactly the bound is appended and read back; one byte more is refused, naming kind, size, bound and file", async () => {
  const dir = tempDir();
  try {
    const bound = 4096;
    const overhead = encodeRecord(reaped([new Uint8Array(2000)])).length - 2000;
    const fits = reaped([new Uint8Array(bound - overhead).fill(1)]);
    assert.equal(encodeRecord(fits).length, bound);
    const wal = await Wal.open(dir, { maxRecordBytes: bound, maxSegmentBytes: 1024 });
    wal.appendInput(fits);
    const over = reaped([new Uint8Array(bound - overhead + 1)]);
    const segment = join(dir, "wal.000000000000");
    assert.throws(
      () => wal.appendInput(over),
      (e: unknown) =>
        e instanceof WalError &&
        e.code === "WAL_RECORD_TOO_LARGE" &&
        e.message.includes(
          `record ProposalBlockReaped of ${bound + 1} bytes exceeds the bound of ${bound} bytes`,
        ) &&
        e.message.includes(segment) &&
        e.details.file === segment,
    );
    await wal.close();
    // The record larger than a 1 KiB segment was written alone in one; reading it back works.
    assert.ok(statSync(segment).size > 1024);
    const again = await Wal.open(dir, { maxRecordBytes: bound, maxSegmentBytes: 1024 });
    assert.equal(again.repair, undefined);
    assert.deepEqual(await again.readAfterLastEndHeight(), [fits]);
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("records larger than the scanner's first read chunk are read back, between small ones, after a restart", async () => {
  const dir = tempDir();
  try {
    const big = (fill: number, bytes: number) => ({ type: "Big", data: new Uint8Array(bytes).fill(fill) });
    const written = [{ type: "Small" }, big(1, 3 * MiB), { type: "Small" }, big(2, 9 * MiB + 5)];
    const wal = await Wal.open(dir);
    for (const input of written) wal.appendInput(input);
    await wal.sync();
    await wal.close();
    const again = await Wal.open(dir);
    assert.equal(again.repair, undefined);
    const read: unknown[] = [];
    for await (const e of again.readAll()) if (e.kind === "input") read.push(e.input);
    await again.close();
    assert.deepEqual(read, written);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Over the former fixed bound of 32 MiB, and larger than the default 64 MiB segment's half: a
// block of 40 MiB at default options writes, replays, and a torn frame after it, or a tear inside
// it, is cut with the records before it kept.
test("a 40 MiB block record at default options is written, replayed, and survives a torn frame after it", async () => {
  const dir = tempDir();
  try {
    const block = reaped([new Uint8Array(40 * MiB).fill(3)]);
    const wal = await Wal.open(dir);
    wal.appendInput({ type: "Small", i: 0 });
    wal.appendInput(block);
    await wal.sync();
    wal.appendInput({ type: "Small", i: 1 });
    await wal.close();
    const segment = join(dir, readdirSync(dir).sort()[0]!);
    const full = statSync(segment).size;
    truncateSync(segment, full - 3); // the last small record torn
    const again = await Wal.open(dir);
    assert.ok(again.repair, "the torn small record is reported");
    assert.equal(again.repair.fault, "short record");
    const inputs = await again.readAfterLastEndHeight();
    assert.equal(inputs.length, 2);
    assert.deepEqual(inputs[0], { type: "Small", i: 0 });
    assert.ok(sameBlock(inputs[1], block), "the 40 MiB record read back as written");
    await again.close();

    // Now the tear inside the large record itself: only the record before it stays.
    const cutAt = again.repair.offset - 20 * MiB;
    truncateSync(segment, cutAt);
    const third = await Wal.open(dir);
    assert.ok(third.repair);
    assert.equal(third.repair.fault, "short record");
    assert.deepEqual(await third.readAfterLastEndHeight(), [{ type: "Small", i: 0 }]);
    await third.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Whether `read` is `block` (assert.deepEqual walks a 40 MiB array byte by byte: seconds). */
function sameBlock(read: unknown, block: ReturnType<typeof reaped>): boolean {
  const r = read as ReturnType<typeof reaped>;
  const { txs, ...rest } = r;
  const { txs: want, ...wantRest } = block;
  assert.deepEqual(rest, wantRest);
  return txs.length === want.length && txs.every((tx, i) => Buffer.from(tx).equals(want[i]!));
}

// A group this large is written with writev, the large record from the codec's own buffer; more
// frames than one writev takes (1,024 buffers) need several calls, each resuming where the last
// one stopped.
test("one sync of 3,000 small records around two block-sized ones writes them all, in order", async () => {
  const dir = tempDir();
  try {
    const written: unknown[] = [];
    const wal = await Wal.open(dir);
    for (let i = 0; i < 3_000; i++) {
      const input =
        i === 700 || i === 2_100
          ? reaped([new Uint8Array(2 * MiB + i).fill(i & 0xff)])
          : { type: "Small", i, pad: new Uint8Array(i % 50) };
      wal.appendInput(input);
      written.push(input);
    }
    await wal.sync();
    wal.appendInput({ type: "After" });
    written.push({ type: "After" });
    await wal.close();
    const again = await Wal.open(dir);
    assert.equal(again.repair, undefined);
    const read = await again.readAfterLastEndHeight();
    await again.close();
    assert.equal(read.length, written.length);
    for (let i = 0; i < written.length; i++) {
      if (i === 700 || i === 2_100)
        assert.ok(sameBlock(read[i], written[i] as ReturnType<typeof reaped>), `record ${i}`);
      else assert.deepEqual(read[i], written[i], `record ${i}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
