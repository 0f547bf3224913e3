// Byte-level building blocks of every key in the stores: a one-byte prefix followed by
// fixed-width big-endian integers, so LevelDB's byte order is numeric order and a range of
// heights is one contiguous key range.
import { StoreError } from "./errors.js";

const MAX_UINT64 = (1n << 64n) - 1n;

/** Writes `height` as 8 big-endian bytes at `offset`; heights are non-negative int64 values. */
export function writeUint64(target: Uint8Array, offset: number, value: bigint): void {
  if (value < 0n || value > MAX_UINT64) {
    throw new StoreError("STORE_INVALID_SAVE", `height ${value} is outside the storable range [0, 2^64)`);
  }
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  view.setBigUint64(offset, value, false);
}

export function readUint64(source: Uint8Array, offset: number): bigint {
  const view = new DataView(source.buffer, source.byteOffset, source.byteLength);
  return view.getBigUint64(offset, false);
}

export function writeUint32(target: Uint8Array, offset: number, value: number): void {
  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  view.setUint32(offset, value >>> 0, false);
}

export function readUint32(source: Uint8Array, offset: number): number {
  const view = new DataView(source.buffer, source.byteOffset, source.byteLength);
  return view.getUint32(offset, false);
}

/** `prefix ‖ height(8)`. */
export function heightKey(prefix: number, height: bigint): Uint8Array {
  const key = new Uint8Array(9);
  key[0] = prefix;
  writeUint64(key, 1, height);
  return key;
}

/** `prefix ‖ height(8) ‖ index(4)`. */
export function heightIndexKey(prefix: number, height: bigint, index: number): Uint8Array {
  const key = new Uint8Array(13);
  key[0] = prefix;
  writeUint64(key, 1, height);
  writeUint32(key, 9, index);
  return key;
}

/** `prefix ‖ bytes`. */
export function bytesKey(prefix: number, bytes: Uint8Array): Uint8Array {
  const key = new Uint8Array(1 + bytes.length);
  key[0] = prefix;
  key.set(bytes, 1);
  return key;
}

/** The single-byte key just past every key starting with `prefix` (exclusive upper bound). */
export function prefixEnd(prefix: number): Uint8Array {
  return Uint8Array.of(prefix + 1);
}

/** The smallest key greater than every key that starts with `bytes`. */
export function bytesPrefixEnd(bytes: Uint8Array): Uint8Array {
  const end = Uint8Array.from(bytes);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff: no finite upper bound shorter than infinity; callers never build such prefixes.
  throw new StoreError("STORE_INVALID_SAVE", "key prefix of only 0xff bytes has no upper bound");
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A height as a stored value: 8 big-endian bytes. */
export function encodeHeight(height: bigint): Uint8Array {
  const out = new Uint8Array(8);
  writeUint64(out, 0, height);
  return out;
}

export function decodeHeight(bytes: Uint8Array): bigint | undefined {
  return bytes.length === 8 ? readUint64(bytes, 0) : undefined;
}
