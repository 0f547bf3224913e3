// A tx is bytes anyone can choose, and it is logged inside our own proposal's record. A tx made of
// well-formed frames (of the unkeyed formats 1 and 2, or keyed under guessed keys), inside a record
// torn by a crash, must not pass as a good record after the tear: the tear is cut as a torn tail
// and the node starts, instead of stopping with WAL_CORRUPT.
import assert from "node:assert/strict";
import { cpSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { encodeEndHeightPayload, encodeFrame, FrameType, keyedFrames } from "../../src/wal/frame.js";
import { readWal } from "../../src/wal/log-reader.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import { Wal } from "../../src/wal/wal.js";
import { tempFolder } from "../fixtures/temp-folder.js";

const vote = (i: number) => ({ type: "VoteReceived", seq: i, height: 2n });

/** A tx whose bytes are frames a reader of the unkeyed formats took for good records. */
function craftedTx(): Uint8Array {
  const frames: Uint8Array[] = [];
  for (let i = 0; i < 20; i++) {
    frames.push(encodeFrame(FrameType.Input, encodeRecord(vote(100 + i)), 1 << 20));
    frames.push(encodeFrame(FrameType.EndHeight, encodeEndHeightPayload(BigInt(7 + i)), 1 << 20));
    // Keyed frames too, under keys the author guessed.
    const guessed = keyedFrames(Uint8Array.from([i, 1, 2, 3, 4, 5, 6, 7]));
    frames.push(encodeFrame(FrameType.Input, encodeRecord(vote(200 + i)), 1 << 20, guessed));
  }
  return Buffer.concat(frames);
}

/**
 * A log whose last record (our proposal's reaped txs) holds the crafted tx, then the tear:
 * the file cut inside that record after the crafted frames, or (as a power cut may leave it) also
 * the record's head lost to zeros.
 */
async function tornLog(tear: "cut" | "cut and head zeroed"): Promise<{ dir: string; tornAt: number }> {
  const dir = join(tempFolder("rxbft-wal-torn-tx-"), "cs.wal");
  const wal = await Wal.open(dir);
  wal.appendInput(vote(0));
  await wal.endHeight(1n);
  wal.appendInput(vote(1));
  await wal.sync();
  const file = join(dir, "wal.000000000000");
  const tornAt = statSync(file).size;
  const tx = craftedTx();
  wal.appendInput({ type: "ProposalBlockReaped", height: 2n, round: 0, txs: [tx, new Uint8Array(4096)] });
  await wal.close();
  const bytes = readFileSync(file);
  const txAt = bytes.indexOf(Buffer.from(tx), tornAt);
  assert.ok(txAt > tornAt, "the tx is inside the last record");
  truncateSync(file, txAt + tx.length + 100);
  if (tear === "cut and head zeroed") {
    const cut = readFileSync(file);
    cut.fill(0, tornAt, tornAt + 13);
    writeFileSync(file, cut);
  }
  return { dir, tornAt };
}

for (const tear of ["cut", "cut and head zeroed"] as const) {
  test(`a tx of well-formed frames inside a torn record is cut as a torn tail (${tear})`, async () => {
    const { dir, tornAt } = await tornLog(tear);
    const file = join(dir, "wal.000000000000");
    const seen: unknown[] = [];
    const entries: unknown[] = [];
    for await (const e of readWal(dir, { onTornTail: (t) => seen.push(t) })) entries.push(e);
    assert.equal(seen.length, 1, "readWal reports a torn tail, not corruption");
    assert.deepEqual(entries, [
      { kind: "input", input: vote(0) },
      { kind: "end-height", height: 1n },
      { kind: "input", input: vote(1) },
    ]);

    const again = await Wal.open(dir);
    assert.ok(again.repair, "cut as a torn tail");
    assert.equal(again.repair.offset, tornAt);
    assert.equal(statSync(file).size, tornAt);
    assert.deepEqual(await again.readAfterLastEndHeight(), [vote(1)]);
    await again.close();
  });
}

test("a log of format 2 replays, and appending after it starts a segment of the current format", async () => {
  const fixture = fileURLToPath(new URL("../fixtures/wal/format-v2", import.meta.url));
  const dir = join(tempFolder("rxbft-wal-upgrade-"), "cs.wal");
  cpSync(fixture, dir, { recursive: true });
  const old = readFileSync(join(dir, "wal.000000000000"));
  const wal = await Wal.open(dir);
  assert.equal(wal.repair, undefined);
  assert.equal(wal.lastEndHeight, 1n);
  const [second] = await wal.readAfterLastEndHeight();
  assert.equal((second as { type: string }).type, "VoteReceived");
  wal.appendInput(vote(9));
  await wal.close();
  assert.deepEqual(readdirSync(dir).sort(), ["wal.000000000000", "wal.000000000001"]);
  assert.deepEqual(readFileSync(join(dir, "wal.000000000000")), old, "the old segment is not appended to");
  const fresh = readFileSync(join(dir, "wal.000000000001"));
  assert.equal(fresh.readUInt16BE(17), 3, "the new segment is format 3");

  const again = await Wal.open(dir);
  assert.deepEqual(await again.readAfterLastEndHeight(), [second, vote(9)]);
  await again.close();
});
