// A string key per BlockID so votes for the same block can be tallied together. Nil (the zero
// BlockID) is the empty string. Hex keeps the key readable in logs and state dumps.
import { bytesEqual as sameBytes } from "../../bytes.js";
import type { BlockID } from "../../wire/generated/tendermint/types/types.js";

export type BlockKey = string;

export const NIL_KEY: BlockKey = "";

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

export function isNilBlockId(blockId: BlockID | undefined): boolean {
  return (
    blockId === undefined ||
    (blockId.hash.length === 0 &&
      blockId.partSetHeader.total === 0 &&
      blockId.partSetHeader.hash.length === 0)
  );
}

/** `hash/total/partsHash` in hex, or "" for nil. */
export function blockKeyOf(blockId: BlockID | undefined): BlockKey {
  if (blockId === undefined || isNilBlockId(blockId)) return NIL_KEY;
  return `${hex(blockId.hash)}/${blockId.partSetHeader.total}/${hex(blockId.partSetHeader.hash)}`;
}

/** Byte-wise equality of two BlockIDs, without building their keys (the hot path of counting). */
export function sameBlockId(a: BlockID, b: BlockID): boolean {
  return (
    a.partSetHeader.total === b.partSetHeader.total &&
    sameBytes(a.hash, b.hash) &&
    sameBytes(a.partSetHeader.hash, b.partSetHeader.hash)
  );
}

// The vote keeper's name for the code base's one byte comparison.
export { sameBytes };
