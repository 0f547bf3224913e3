// Our proposal's Data bytes made before the block (src/types/block-data-ahead.ts, the node's
// reaping) must leave the block's bytes, and so its parts and BlockID, exactly as the fold's own
// encoding makes them: the consensus log and the reducer's output cannot tell the two apart.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Block, blockPartsAndId, encodeBlock } from "../../src/types/block.js";
import {
  blockDataBytesAhead,
  blockDataBytesTaken,
  DATA_TAIL_ROOM,
} from "../../src/types/block-data-ahead.js";
import { BlockIDFlag } from "../../src/wire/generated/tendermint/types/types.js";
import { block } from "./codec-arbitraries.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("a block's Data bytes made ahead", () => {
  it("give the one-piece block bytes exactly, paused between pieces, and are taken by the block's encoding", async () => {
    await fc.assert(
      fc.asyncProperty(block, fc.integer({ min: 1, max: 4 }), async (b, piece) => {
        let pauses = 0;
        await blockDataBytesAhead(
          b.data.txs,
          async () => {
            pauses++;
          },
          piece,
        );
        assert.equal(pauses, Math.max(0, Math.ceil(b.data.txs.length / piece) - 1));
        assert.equal(hex(encodeBlock(b)), hex(Block.encode(b).finish()));
        assert.equal(blockDataBytesTaken(b.data.txs), undefined, "the block's encoding took them");
      }),
      { numRuns: 200 },
    );
  });

  it("leave the parts and BlockID of a large block as the fold makes them without", async () => {
    const b = fc.sample(block, { numRuns: 1, seed: 7 })[0]!;
    const txs = Array.from({ length: 5000 }, (_, i) =>
      new TextEncoder().encode(`k${i}=${"v".repeat(i % 200)}`),
    );
    const withTxs: Block = { ...b, data: { txs } };
    const without = blockPartsAndId(withTxs);
    await blockDataBytesAhead(txs, async () => {});
    const ahead = blockPartsAndId(withTxs);
    assert.equal(blockDataBytesTaken(txs), undefined, "taken by the parts' encoding");
    assert.deepEqual(ahead.blockId, without.blockId);
    assert.deepEqual(ahead.header, without.header);
    assert.deepEqual(
      ahead.parts.map((p) => [p.index, hex(p.bytes), p.proof]),
      without.parts.map((p) => [p.index, hex(p.bytes), p.proof]),
    );
  });

  it("hold the block's other fields in their room: the block's bytes are written around them, not copied", async () => {
    const b = fc.sample(block, { numRuns: 1, seed: 11 })[0]!;
    const txs = Array.from({ length: 3000 }, (_, i) => new TextEncoder().encode(`k${i}=${"v".repeat(90)}`));
    const withTxs: Block = { ...b, data: { txs } };
    const expected = hex(Block.encode(withTxs).finish());
    await blockDataBytesAhead(txs, async () => {});
    const bytes = encodeBlock(withTxs);
    assert.equal(hex(bytes), expected);
    assert.ok(
      bytes.byteOffset > 0 && bytes.buffer.byteLength > bytes.length,
      "written in the Data's own buffer",
    );
  });

  it("give the block's bytes by a copy when its other fields outgrow the room", async () => {
    const b = fc.sample(block, { numRuns: 1, seed: 13 })[0]!;
    const txs = Array.from({ length: 300 }, (_, i) => new TextEncoder().encode(`k${i}`));
    // A last commit of 1,000 signatures: ~100 KB after the Data, more than its room.
    const signatures = Array.from({ length: 1000 }, (_, i) => ({
      blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      validatorAddress: new Uint8Array(20).fill(i & 0xff),
      timestamp: { seconds: 1_700_000_000n, nanos: i },
      signature: new Uint8Array(64).fill(7),
    }));
    const big: Block = {
      ...b,
      data: { txs },
      lastCommit: {
        height: 5n,
        round: 0,
        blockId: { hash: new Uint8Array(32), partSetHeader: { total: 1, hash: new Uint8Array(32) } },
        signatures,
      },
    };
    assert.ok(Block.encode(big).finish().length > DATA_TAIL_ROOM);
    await blockDataBytesAhead(txs, async () => {});
    assert.equal(hex(encodeBlock(big)), hex(Block.encode(big).finish()));
  });

  it("are not used once the array holds other txs", async () => {
    const txs = [Uint8Array.of(1, 2), Uint8Array.of(3)];
    await blockDataBytesAhead(txs, async () => {});
    txs[1] = Uint8Array.of(4, 5, 6);
    assert.equal(blockDataBytesTaken(txs), undefined);
    await blockDataBytesAhead(txs, async () => {});
    txs.push(Uint8Array.of(7));
    assert.equal(blockDataBytesTaken(txs), undefined);
  });
});
