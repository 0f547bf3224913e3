// Zero and complete BlockIDs (types/block.go): a nil vote carries the zero BlockID, and sign bytes
// leave a zero BlockID out of the canonical form entirely.
import { HASH_SIZE } from "../crypto/hash.js";
import { type BlockID, PartSetHeader } from "./generated/tendermint/types/types.js";

export function partSetHeaderIsZero(header: PartSetHeader | undefined): boolean {
  return header === undefined || (header.total === 0 && header.hash.length === 0);
}

/** No hash and a zero part-set header: the BlockID of a nil vote. */
export function blockIdIsZero(blockId: BlockID | undefined): boolean {
  return blockId === undefined || (blockId.hash.length === 0 && partSetHeaderIsZero(blockId.partSetHeader));
}

/** A 32-byte hash and a part-set header with a positive total and a 32-byte hash. */
export function blockIdIsComplete(blockId: BlockID | undefined): boolean {
  return (
    blockId !== undefined &&
    blockId.hash.length === HASH_SIZE &&
    blockId.partSetHeader.total > 0 &&
    blockId.partSetHeader.hash.length === HASH_SIZE
  );
}

/** The BlockID of nothing (nil votes, absent and nil commit signatures, the first LastBlockID). */
export function zeroBlockId(): BlockID {
  return { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };
}

/** hash ‖ protobuf(part-set header): Go's BlockID.Key(), which orders duplicate votes in evidence. */
export function blockIdKey(blockId: BlockID): Uint8Array {
  const psh = PartSetHeader.encode(blockId.partSetHeader).finish();
  const out = new Uint8Array(blockId.hash.length + psh.length);
  out.set(blockId.hash, 0);
  out.set(psh, blockId.hash.length);
  return out;
}
