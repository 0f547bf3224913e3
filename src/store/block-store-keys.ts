// Key layout of blockstore.db. One prefix byte per record kind, then the big-endian height
// (and part index), so every per-height record sorts by height and pruning a range of heights
// is a contiguous key range per kind.
import { bytesKey, heightIndexKey, heightKey, readUint64, writeUint64 } from "./key-bytes.js";

export const BLOCK_STORE_STATE_KEY = Uint8Array.of(0x00);
export const PREFIX_META = 0x01; // H:<height>  → BlockMeta
export const PREFIX_PART = 0x02; // P:<height>:<index> → Part
export const PREFIX_COMMIT = 0x03; // C:<height> → Commit of <height> (from block <height>+1's last_commit)
export const PREFIX_SEEN_COMMIT = 0x04; // SC:<height> → the commit this node saw for <height>
export const PREFIX_HASH = 0x05; // BH:<hash> → height

export const metaKey = (height: bigint): Uint8Array => heightKey(PREFIX_META, height);
export const partKey = (height: bigint, index: number): Uint8Array =>
  heightIndexKey(PREFIX_PART, height, index);
export const commitKey = (height: bigint): Uint8Array => heightKey(PREFIX_COMMIT, height);
export const seenCommitKey = (height: bigint): Uint8Array => heightKey(PREFIX_SEEN_COMMIT, height);
export const hashKey = (hash: Uint8Array): Uint8Array => bytesKey(PREFIX_HASH, hash);

/** {base, height} of the store: 16 bytes, both big-endian. Written in every save and prune batch. */
export function encodeBlockStoreState(base: bigint, height: bigint): Uint8Array {
  const out = new Uint8Array(16);
  writeUint64(out, 0, base);
  writeUint64(out, 8, height);
  return out;
}

export function decodeBlockStoreState(bytes: Uint8Array): { base: bigint; height: bigint } | undefined {
  if (bytes.length !== 16) return undefined;
  return { base: readUint64(bytes, 0), height: readUint64(bytes, 8) };
}
