// BlockIDs: the block hash plus the header of the part set that carries the block.
import { upperHex } from "../bytes.js";
import { HASH_SIZE } from "../crypto/hash.js";
import type { BlockID, PartSetHeader } from "../wire/generated/tendermint/types/types.js";
import { bytesEqual } from "./bytes.js";

export {
  blockIdIsComplete,
  blockIdIsZero,
  blockIdKey,
  partSetHeaderIsZero,
  zeroBlockId,
} from "../wire/block-id.js";

export type { BlockID, PartSetHeader };

export function makeBlockId(hash: Uint8Array, partSetHeader: PartSetHeader): BlockID {
  return { hash, partSetHeader: { total: partSetHeader.total, hash: partSetHeader.hash } };
}

export function partSetHeadersEqual(a: PartSetHeader, b: PartSetHeader): boolean {
  return a.total === b.total && bytesEqual(a.hash, b.hash);
}

export function blockIdsEqual(a: BlockID, b: BlockID): boolean {
  return bytesEqual(a.hash, b.hash) && partSetHeadersEqual(a.partSetHeader, b.partSetHeader);
}

/** Upper-case hex of a hash as Tendermint prints it, e.g. in logs and `Vote.String()`. */
export function hashToHex(hash: Uint8Array): string {
  return upperHex(hash);
}

export { HASH_SIZE };
