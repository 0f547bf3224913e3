// Our proposal's Data bytes made before the block (src/types/block-data-ahead.ts, the node's
// reaping) must leave the block's bytes, and so its parts and BlockID, exactly as the fold's own
// encoding makes them: the consensus log and the reducer's output cannot tell the two apart.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Block, blockPartsAndId, encodeBlock } from "../../src/types/block.js";
import { blockDataBytesAhead, blockDataBytesTaken } from "../../src/types/block-data-ahead.js";
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
