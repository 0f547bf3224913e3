// The gossip's bit arrays (v0.34's libs/bits BitArray): which votes or block parts a peer holds,
// one byte per bit so that a copy-on-write update stays trivial. Sizes are bounded by the callers
// (validator count ≤ MaxVotesCount, parts ≤ MaxBlockPartsCount), never by what a peer claims.
import type { BitArray as WireBitArray } from "../../wire/generated/tendermint/libs/bits/types.js";

export type Bits = Readonly<Uint8Array>;

export function emptyBits(size: number): Bits {
  return new Uint8Array(size);
}

export function hasBit(bits: Bits | undefined, index: number): boolean {
  return bits !== undefined && index >= 0 && index < bits.length && bits[index] === 1;
}

/** A copy with bit `index` set to `value` (the same array when nothing changes or out of range). */
export function withBit(bits: Bits, index: number, value = true): Bits {
  if (index < 0 || index >= bits.length || (bits[index] === 1) === value) return bits;
  // slice, not Uint8Array.from: from() walks the array through the iterator protocol.
  const copy = bits.slice();
  copy[index] = value ? 1 : 0;
  return copy;
}

/** `bits` resized to `size` (v0.34's Update copies what fits: extra bits dropped, missing are 0). */
export function resized(bits: Bits, size: number): Bits {
  if (bits.length === size) return bits;
  const out = new Uint8Array(size);
  out.set(bits.subarray(0, Math.min(size, bits.length)));
  return out;
}

export function countBits(bits: Bits): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) n += bits[i]!;
  return n;
}

/** The wire form: `bits` count and little-endian 64-bit words (bit i is word i/64, bit i%64). */
export function bitsToWire(bits: Bits): WireBitArray {
  const elems: bigint[] = new Array(Math.ceil(bits.length / 64)).fill(0n);
  for (let i = 0; i < bits.length; i++) if (bits[i] === 1) elems[i >> 6]! |= 1n << BigInt(i & 63);
  return { bits: BigInt(bits.length), elems };
}

/**
 * The wire form read back, at most `max` bits. Returns a reason string when the array is
 * malformed (negative or oversized count, or a word count that does not match the bit count).
 */
export function bitsFromWire(wire: WireBitArray, max: number): Bits | string {
  if (wire.bits < 0n) return `bit array size is negative (${wire.bits})`;
  if (wire.bits > BigInt(max)) return `bit array of ${wire.bits} bits exceeds ${max}`;
  const size = Number(wire.bits);
  if (wire.elems.length !== Math.ceil(size / 64))
    return `bit array of ${size} bits carries ${wire.elems.length} words, expected ${Math.ceil(size / 64)}`;
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i++) if (((wire.elems[i >> 6]! >> BigInt(i & 63)) & 1n) === 1n) out[i] = 1;
  return out;
}
