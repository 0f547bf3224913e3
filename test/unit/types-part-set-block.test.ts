// partSetBlock: the block of a complete part set decoded and hashed once per part set in the
// process (every receiver of a proposal assembles the same parts), with each asker's size limit
// still applied and an incomplete set still refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blockHash, blockPartsAndId, encodeBlock } from "../../src/types/block.js";
import { TypesError } from "../../src/types/errors.js";
import { addPart, emptyPartSet, type PartSetState } from "../../src/types/part-set.js";
import { partSetBlock } from "../../src/types/part-set-block.js";
import * as fx from "./types-fixtures.js";

const LIMIT = 104857600;

/** A receiver's own assembly of the block's parts (its own part-set state, parts in `order`). */
function assembled(tx: Uint8Array, reverse = false): { set: PartSetState; hash: Uint8Array; bytes: Uint8Array } {
  const block = fx.block(fx.commit(), [tx, Uint8Array.of(1)]);
  const { blockId, parts } = blockPartsAndId(block);
  let set = emptyPartSet(blockId.partSetHeader);
  for (const p of reverse ? [...parts].reverse() : parts) set = addPart(set, p);
  return { set, hash: blockHash(block), bytes: encodeBlock(block) };
}

describe("partSetBlock", () => {
  it("decodes the block and its hash, and hands two receivers of the same parts one decoded block", () => {
    const a = assembled(new Uint8Array(150_000).fill(7));
    const b = assembled(new Uint8Array(150_000).fill(7), true);
    assert.notEqual(a.set, b.set);
    const first = partSetBlock(a.set, LIMIT);
    assert.deepEqual(first.hash, a.hash);
    assert.deepEqual(encodeBlock(first.block), a.bytes);
    const second = partSetBlock(b.set, LIMIT);
    // Decoded once: the second receiver gets the same block object (so per-object hash memos hit).
    assert.equal(second.block, first.block);
    assert.equal(second.hash, first.hash);
  });

  it("a different part set is decoded on its own", () => {
    const a = partSetBlock(assembled(new Uint8Array(2000).fill(8)).set, LIMIT);
    const other = assembled(new Uint8Array(2000).fill(9));
    const b = partSetBlock(other.set, LIMIT);
    assert.notEqual(b.block, a.block);
    assert.deepEqual(encodeBlock(b.block), other.bytes);
  });

  it("applies each asker's size limit, remembered or not", () => {
    const { set } = assembled(new Uint8Array(3000).fill(10));
    const tooLarge = (e: unknown) => e instanceof TypesError && e.code === "TYPES_BLOCK_TOO_LARGE";
    assert.throws(() => partSetBlock(set, set.byteSize - 1), tooLarge);
    partSetBlock(set, LIMIT);
    assert.throws(() => partSetBlock(set, set.byteSize - 1), tooLarge);
  });

  it("refuses an incomplete part set even when the complete one is remembered", () => {
    const tx = new Uint8Array(150_000).fill(11);
    const complete = assembled(tx);
    partSetBlock(complete.set, LIMIT);
    const block = fx.block(fx.commit(), [tx, Uint8Array.of(1)]);
    const { blockId, parts } = blockPartsAndId(block);
    const partial = addPart(emptyPartSet(blockId.partSetHeader), parts[0]!);
    assert.throws(
      () => partSetBlock(partial, LIMIT),
      (e: unknown) => e instanceof TypesError && e.code === "TYPES_PART_SET_INCOMPLETE",
    );
  });
});
