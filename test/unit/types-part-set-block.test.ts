// partSetBlock: the block of a complete part set decoded and hashed once per part set in the
// process (every receiver of a proposal assembles the same parts), with each asker's size limit
// still applied and an incomplete set still refused.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blockHash, blockPartsAndId, encodeBlock } from "../../src/types/block.js";
import { TypesError } from "../../src/types/errors.js";
import { addPart, emptyPartSet, type PartSetState } from "../../src/types/part-set.js";
import {
  PART_SET_BLOCKS_KEPT,
  PART_SET_BYTES_KEPT,
  partSetBlock,
  partSetBlocksKept,
  rememberSplitBlock,
} from "../../src/types/part-set-block.js";
import * as fx from "./types-fixtures.js";

const LIMIT = 104857600;

/** A receiver's own assembly of the block's parts (its own part-set state, parts in reverse when asked). */
function assembled(
  txSize: number,
  fill: number,
  reverse = false,
): { set: PartSetState; hash: Uint8Array; bytes: Uint8Array } {
  const block = fx.block(fx.commit(), [new Uint8Array(txSize).fill(fill), Uint8Array.of(1)]);
  const { blockId, parts } = blockPartsAndId(block);
  let set = emptyPartSet(blockId.partSetHeader);
  for (const p of reverse ? [...parts].reverse() : parts) set = addPart(set, p);
  return { set, hash: blockHash(block), bytes: encodeBlock(block) };
}

describe("partSetBlock", () => {
  it("decodes the block and its hash, and hands two receivers of the same parts one decoded block", () => {
    const a = assembled(150_000, 7);
    const b = assembled(150_000, 7, true);
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
    const a = partSetBlock(assembled(2000, 8).set, LIMIT);
    const other = assembled(2000, 9);
    const b = partSetBlock(other.set, LIMIT);
    assert.notEqual(b.block, a.block);
    assert.deepEqual(encodeBlock(b.block), other.bytes);
  });

  it("applies each asker's size limit, remembered or not", () => {
    const { set } = assembled(3000, 10);
    const tooLarge = (e: unknown) => e instanceof TypesError && e.code === "TYPES_BLOCK_TOO_LARGE";
    assert.throws(() => partSetBlock(set, set.byteSize - 1), tooLarge);
    partSetBlock(set, LIMIT);
    assert.throws(() => partSetBlock(set, set.byteSize - 1), tooLarge);
  });

  it("refuses an incomplete part set even when the complete one is remembered", () => {
    const complete = assembled(150_000, 11);
    partSetBlock(complete.set, LIMIT);
    const block = fx.block(fx.commit(), [new Uint8Array(150_000).fill(11), Uint8Array.of(1)]);
    const { blockId, parts } = blockPartsAndId(block);
    const partial = addPart(emptyPartSet(blockId.partSetHeader), parts[0]!);
    assert.throws(
      () => partSetBlock(partial, LIMIT),
      (e: unknown) => e instanceof TypesError && e.code === "TYPES_PART_SET_INCOMPLETE",
    );
  });

  it("forgets the oldest part set beyond its count", () => {
    const first = assembled(1000, 20);
    const firstBlock = partSetBlock(first.set, LIMIT).block;
    for (let i = 1; i < PART_SET_BLOCKS_KEPT; i++) partSetBlock(assembled(1000, 20 + i).set, LIMIT);
    // Still within the count: the first is remembered.
    assert.equal(partSetBlock(first.set, LIMIT).block, firstBlock);
    partSetBlock(assembled(1000, 20 + PART_SET_BLOCKS_KEPT).set, LIMIT);
    assert.equal(partSetBlocksKept().count, PART_SET_BLOCKS_KEPT);
    // One more than the count: the first was forgotten, so it is decoded again (an equal block,
    // not the same object).
    const again = partSetBlock(first.set, LIMIT).block;
    assert.notEqual(again, firstBlock);
    assert.deepEqual(encodeBlock(again), first.bytes);
  });

  it("forgets old part sets beyond its bytes, but always keeps the newest", () => {
    const big = Math.floor(PART_SET_BYTES_KEPT / 2) + 1000;
    const a = assembled(big, 40);
    const aBlock = partSetBlock(a.set, LIMIT).block;
    partSetBlock(assembled(big, 41).set, LIMIT);
    // Two halves and a bit are over the byte bound: only the newest is kept.
    assert.equal(partSetBlocksKept().count, 1);
    assert.ok(partSetBlocksKept().bytes > PART_SET_BYTES_KEPT / 2);
    assert.notEqual(partSetBlock(a.set, LIMIT).block, aBlock);
    const huge = assembled(PART_SET_BYTES_KEPT + 1000, 42);
    const hugeBlock = partSetBlock(huge.set, LIMIT).block;
    assert.equal(partSetBlocksKept().count, 1);
    assert.equal(partSetBlock(huge.set, LIMIT).block, hugeBlock);
  });

  it("hands receivers the block a part set was split from, once that block is remembered", () => {
    const block = fx.block(fx.commit(), [new Uint8Array(150_000).fill(50), Uint8Array.of(2)]);
    const { blockId, header, parts } = blockPartsAndId(block);
    const own: PartSetState = {
      header,
      parts,
      count: parts.length,
      byteSize: parts.reduce((n, p) => n + p!.bytes.length, 0),
      maxBytes: undefined,
    };
    rememberSplitBlock(own, block, blockId.hash);
    let received = emptyPartSet(blockId.partSetHeader);
    for (const p of [...parts].reverse()) received = addPart(received, p);
    const answer = partSetBlock(received, LIMIT);
    assert.equal(answer.block, block, "the built block, not a decoded copy");
    assert.deepEqual(answer.hash, blockHash(block));
    assert.throws(
      () => partSetBlock(received, received.byteSize - 1),
      (e: unknown) => e instanceof TypesError && e.code === "TYPES_BLOCK_TOO_LARGE",
    );
  });

  it("remembers no incomplete part set of a built block", () => {
    const block = fx.block(fx.commit(), [new Uint8Array(150_000).fill(51), Uint8Array.of(3)]);
    const { blockId, header, parts } = blockPartsAndId(block);
    const partial = addPart(emptyPartSet(header), parts[0]!);
    rememberSplitBlock(partial, block, blockId.hash);
    let received = emptyPartSet(blockId.partSetHeader);
    for (const p of parts) received = addPart(received, p);
    const answer = partSetBlock(received, LIMIT);
    assert.notEqual(answer.block, block);
    assert.deepEqual(encodeBlock(answer.block), encodeBlock(block));
  });
});
