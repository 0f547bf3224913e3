import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { maxDataBytesNoEvidence } from "../../src/types/block-limits.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { encodeFrame, FrameType } from "../../src/wal/frame.js";
import { DEFAULT_MAX_RECORD_BYTES } from "../../src/wal/log-reader.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import { Wal } from "../../src/wal/wal.js";

// Our proposal's reaped txs are logged as one record: a full block at the default max_bytes must
// fit the default bound, or a validator under load stops with WAL_RECORD_TOO_LARGE.
for (const txBytes of [100, 1000]) {
  test(`a ProposalBlockReaped filling a default-params block with ${txBytes}-byte txs fits the default record bound`, () => {
    const dataBytes = maxDataBytesNoEvidence(Number(defaultConsensusParams().block.maxBytes), 1);
    // Each tx in the block's protobuf data costs its bytes, a tag and a length varint.
    const perTx = txBytes + 1 + (txBytes < 128 ? 1 : 2);
    const tx = new Uint8Array(txBytes).fill(7);
    const txs = new Array<Uint8Array>(Math.floor(dataBytes / perTx)).fill(tx);
    const record = encodeRecord({
      type: "ProposalBlockReaped",
      time: { seconds: 1_700_000_000n, nanos: 0 },
      height: 123_456n,
      round: 0,
      txs,
      evidence: [],
    });
    assert.doesNotThrow(() => encodeFrame(FrameType.Input, record, DEFAULT_MAX_RECORD_BYTES));
  });
}

test("records larger than the scanner's first read chunk are read back, between small ones, after a restart", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wal-record-bound-"));
  try {
    const big = (fill: number, bytes: number) => ({ type: "Big", data: new Uint8Array(bytes).fill(fill) });
    const written = [
      { type: "Small" },
      big(1, 3 * 1024 * 1024),
      { type: "Small" },
      big(2, 9 * 1024 * 1024 + 5),
    ];
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
