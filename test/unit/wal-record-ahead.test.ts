import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { encodeFrameHead, encodeFrameHeadOfPieces, FrameType, keyedFrames } from "../../src/wal/frame.js";
import { readWal, type WalEntry } from "../../src/wal/log-reader.js";
import {
  RECORD_AHEAD_MIN_ITEMS,
  RecordItemsPrefix,
  recordItemsAhead,
  takeRecordItems,
} from "../../src/wal/record-ahead.js";
import { encodeRecord, encodeRecordInPieces } from "../../src/wal/record-codec.js";
import { Wal } from "../../src/wal/wal.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const noPause = async () => {};
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const joined = (pieces: readonly Uint8Array[]) => Buffer.concat(pieces);
/** Txs of several lengths, one over 127 bytes (a two-byte length) and an empty one. */
const txsOf = (n: number, salt = 0) =>
  Array.from({ length: n }, (_, i) => {
    const len = i % 97 === 5 ? 300 : i % 89 === 3 ? 0 : 100;
    return Uint8Array.from({ length: len }, (_, k) => (i * 31 + k + salt) & 0xff);
  });
const reaped = (txs: readonly Uint8Array[]) => ({
  type: "ProposalBlockReaped",
  time: { seconds: 1_700_000_000n, nanos: 5 },
  height: 12n,
  round: 0,
  txs,
  evidence: [],
});

test("a record whose txs were encoded ahead has encodeRecord's bytes, the txs linked as chunks", async () => {
  for (const [n, piece] of [
    [RECORD_AHEAD_MIN_ITEMS, 7],
    [5_000, 2048],
    [4_096, 2048],
  ] as const) {
    const txs = txsOf(n);
    const input = reaped(txs);
    const expected = encodeRecord(input);
    await recordItemsAhead(txs, noPause, piece);
    const record = encodeRecordInPieces(input);
    assert.ok(record.pieces.length > 2, "the chunks are linked, not copied into one buffer");
    assert.equal(record.length, expected.length);
    assert.equal(hex(joined(record.pieces)), hex(expected), `${n} txs in pieces of ${piece}`);
    // Taken once: a second encoding of the same input encodes afresh, to the same bytes.
    const again = encodeRecordInPieces(input);
    assert.equal(again.pieces.length, 1);
    assert.equal(hex(again.pieces[0]!), hex(expected));
  }
});

test("chunks answer only for the very array, while it holds the very txs encoded", async () => {
  const txs = txsOf(100);
  await recordItemsAhead(txs, noPause);
  assert.equal(takeRecordItems(txs.slice()), undefined, "a copy of the array is another array");
  const changed = txsOf(100);
  await recordItemsAhead(changed, noPause);
  changed[50] = new Uint8Array([1, 2, 3]);
  assert.equal(takeRecordItems(changed), undefined, "an item replaced after the encoding");
  const input = reaped(changed);
  assert.equal(hex(joined(encodeRecordInPieces(input).pieces)), hex(encodeRecord(input)));
  const few = txsOf(RECORD_AHEAD_MIN_ITEMS - 1);
  await recordItemsAhead(few, noPause);
  assert.equal(takeRecordItems(few), undefined, "a short array is encoded in place");
});

test("a prefix's chunks and the rest's are the whole array's encoding; a reap that does not start with it is refused", async () => {
  const pool = txsOf(3_000, 1);
  const prefix = await RecordItemsPrefix.of(pool, noPause, 1000);
  const txs = [...pool, ...txsOf(1_234, 2)];
  assert.equal(await prefix.finish(txs, noPause, 1000), true);
  assert.equal(await prefix.finish(txs, noPause, 1000), false, "finished once");
  const input = reaped(txs);
  assert.equal(hex(joined(encodeRecordInPieces(input).pieces)), hex(encodeRecord(input)));

  const other = await RecordItemsPrefix.of(pool, noPause, 1000);
  const reordered = [pool[1]!, pool[0]!, ...pool.slice(2)];
  assert.equal(await other.finish(reordered, noPause), false);
  assert.equal(takeRecordItems(reordered), undefined);
  const shorter = await RecordItemsPrefix.of(pool, noPause, 1000);
  assert.equal(await shorter.finish(pool.slice(0, 2_000), noPause), false);
});

test("a frame's head over pieces with known checks is the head over the joined payload", async () => {
  const txs = txsOf(3_000);
  await recordItemsAhead(txs, noPause, 512);
  const record = encodeRecordInPieces(reaped(txs));
  const payload = joined(record.pieces);
  for (const scheme of [undefined, keyedFrames(Uint8Array.from([9, 8, 7, 6, 5, 4, 3, 2]))]) {
    assert.equal(
      hex(
        encodeFrameHeadOfPieces(
          FrameType.Input,
          record.pieces,
          record.checks,
          record.length,
          1 << 30,
          scheme,
        ),
      ),
      hex(encodeFrameHead(FrameType.Input, payload, 1 << 30, scheme)),
    );
  }
});

test("the log holds the same bytes whether a reap's txs were encoded ahead or not, and reads them back", async () => {
  const keys = { segmentKeys: () => Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]) };
  const write = async (ahead: boolean) => {
    const dir = join(tempFolder("rxbft-wal-ahead-"), "cs.wal");
    const wal = await Wal.open(dir, keys);
    const txs = txsOf(6_000);
    if (ahead) await recordItemsAhead(txs, noPause);
    wal.appendInput({ type: "VoteReceived", height: 12n });
    wal.appendInput(reaped(txs));
    wal.appendInput({ type: "VoteReceived", height: 12n });
    await wal.endHeight(12n);
    await wal.close();
    return dir;
  };
  const plain = await write(false);
  const linked = await write(true);
  const file = (dir: string) => readFileSync(join(dir, "wal.000000000000"));
  assert.equal(hex(file(linked)), hex(file(plain)));
  const entries: WalEntry[] = [];
  for await (const e of readWal(linked)) entries.push(e);
  const inputs = entries.flatMap((e) => (e.kind === "input" ? [e.input] : []));
  assert.equal(inputs.length, 3);
  assert.deepEqual((inputs[1] as { txs: Uint8Array[] }).txs, txsOf(6_000));
});
