// A peer's block hashed as its parts arrive: once the last part is in and the block decoded, its
// data hash is already there (dataHash answers it without hashing again), equal to the hash of the
// txs; a block whose header names another data hash is still refused; and a layout the reader
// does not follow (Data given twice) leaves dataHash to hash the decoded txs as before.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { merkleRoot } from "../../src/crypto/merkle.js";
import { blockPartsAndId, encodeBlock } from "../../src/types/block.js";
import { TypesError } from "../../src/types/errors.js";
import { addPart, emptyPartSet, type PartSetState, splitIntoParts } from "../../src/types/part-set.js";
import { partSetBlock } from "../../src/types/part-set-block.js";
import { partSetsBeingRead, takeDataHashOfParts } from "../../src/types/part-set-data-hash.js";
import { validateBlock } from "../../src/types/validate-block.js";
import { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { dataHash, rememberedTxHashes, txHash } from "../../src/wire/hashes.js";
import * as fx from "./types-fixtures.js";

const LIMIT = 104857600;

/** 3,000 distinct txs of ~100 bytes: a block of five parts. */
function manyTxs(tag: number): Uint8Array<ArrayBuffer>[] {
  return Array.from({ length: 3000 }, (_, i) => {
    const tx = new Uint8Array(100).fill(tag);
    new DataView(tx.buffer).setUint32(0, i);
    return tx;
  });
}

function received(parts: ReturnType<typeof blockPartsAndId>["parts"], header: PartSetState["header"]) {
  let set = emptyPartSet(header);
  for (const p of [...parts].reverse()) set = addPart(set, p);
  return set;
}

describe("a block's data hash read from its parts", () => {
  it("is there once the block is decoded, and is the txs' data hash", () => {
    const txs = manyTxs(1);
    const block = fx.block(fx.commit(), txs);
    const { blockId, parts } = blockPartsAndId(block);
    assert.ok(parts.length >= 4);
    const decoded = partSetBlock(received(parts, blockId.partSetHeader), LIMIT).block;
    const hashes = rememberedTxHashes(decoded.data.txs);
    assert.ok(hashes !== undefined, "read before the last part's decode");
    assert.deepEqual(hashes, txs.map(txHash));
    assert.deepEqual(dataHash(decoded.data.txs), merkleRoot(txs.map(txHash)));
    assert.deepEqual(dataHash(decoded.data.txs), block.header.dataHash);
    validateBlock(decoded);
  });

  it("a block whose header names other txs' data hash is refused as before", () => {
    const block = fx.block(fx.commit(), manyTxs(2));
    const wrong = { ...block, header: { ...block.header, dataHash: dataHash(manyTxs(3)) } };
    const { blockId, parts } = blockPartsAndId(wrong);
    const decoded = partSetBlock(received(parts, blockId.partSetHeader), LIMIT).block;
    assert.ok(rememberedTxHashes(decoded.data.txs) !== undefined);
    assert.throws(
      () => validateBlock(decoded),
      (e: unknown) =>
        e instanceof TypesError && e.code === "TYPES_HASH_MISMATCH" && /dataHash/.test(e.message),
    );
  });

  it("Data given twice: nothing read is used, and dataHash hashes all the decoded txs", () => {
    const first = manyTxs(4);
    const block = fx.block(fx.commit(), first);
    const extra = Uint8Array.of(9, 9, 9);
    // A second field 2 (Data {txs: [extra]}) after the block: what the reader saw is not what the
    // decoder gives (it takes the later Data), so the decoder's txs are hashed afresh.
    const bytes = new Uint8Array([...encodeBlock(block), 0x12, 5, 0x0a, 3, ...extra]);
    const { header, parts } = splitIntoParts(bytes);
    const set = received(parts, header);
    const decoded = partSetBlock(set, LIMIT).block;
    assert.notEqual(decoded.data.txs.length, first.length);
    assert.equal(rememberedTxHashes(decoded.data.txs), undefined);
    const copies = decoded.data.txs.map((tx) => tx.slice());
    assert.deepEqual(dataHash(decoded.data.txs), merkleRoot(copies.map(txHash)));
    assert.equal(takeDataHashOfParts(set, bytes, Block.decode(bytes)), false);
  });

  it("keeps a bounded number of part sets being read", () => {
    for (let i = 0; i < 10; i++) {
      const { blockId, parts } = blockPartsAndId(fx.block(fx.commit(), [Uint8Array.of(i, 50)]));
      received(parts, blockId.partSetHeader);
    }
    assert.ok(partSetsBeingRead() <= 4);
  });
});
