// Byte-level building blocks of every key in the stores: a one-byte prefix followed by
// fixed-width big-endian integers, so LevelDB's byte order is numeric order and a range of
// heights is one contiguous key range.
import { StoreError } from "./errors.js";

const MAX_UINT64 = (1n << 64n) - 1n;

// Byte by byte rather than through a DataView: a height's index builds tens of thousands of keys,
// and a DataView per call (and a BigInt range check) was most of writing one.

/** Writes `height` as 8 big-endian bytes at `offset`; heights are non-negative int64 values. */
export function writeUint64(target: Uint8Array, offset: number, value: bigint): void {
  if (value < 0n || value > MAX_UINT64) {
    throw new StoreError("STORE_INVALID_SAVE", `height ${value} is outside the storable range [0, 2^64)`);
  }
  let hi: number;
  let lo: number;
  if (value <= 9007199254740991n) {
    const n = Number(value);
    hi = Math.floor(n / 4294967296);
    lo = n >>> 0;
  } else {
    hi = Number(value >> 32n);
    lo = Number(value & 0xffffffffn);
  }
  writeUint32(target, offset, hi);
  writeUint32(target, offset + 4, lo);
}

export function readUint64(source: Uint8Array, offset: number): bigint {
  const hi = readUint32(source, offset);
  const lo = readUint32(source, offset + 4);
  if (hi < 0x200000) return BigInt(hi * 4294967296 + lo);
  return (BigInt(hi) << 32n) | BigInt(lo);
}

export function writeUint32(target: Uint8Array, offset: number, value: number): void {
  if (offset < 0 || offset + 4 > target.length)
    throw new RangeError(`offset ${offset} is outside the ${target.length}-byte array`);
  target[offset] = value >>> 24;
  target[offset + 1] = (value >>> 16) & 0xff;
  target[offset + 2] = (value >>> 8) & 0xff;
  target[offset + 3] = value & 0xff;
}

export function readUint32(source: Uint8Array, offset: number): number {
  if (offset < 0 || offset + 4 > source.length)
    throw new RangeError(`offset ${offset} is outside the ${source.length}-byte array`);
  return (
    ((source[offset]! << 24) |
      (source[offset + 1]! << 16) |
      (source[offset + 2]! << 8) |
      source[offset + 3]!) >>>
    0
  );
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
