// Unsigned and zigzag varints as Go's encoding/binary writes them. The sign-bytes prefix, p2p
// packets and privval use the unsigned form (protoio); ABCI socket framing and one evidence hash
// use the zigzag form. Both are here so nobody hand-rolls a second copy.
import { WireError } from "./errors.js";

/** Longest varint of a 64-bit value. */
export const MAX_VARINT_LENGTH = 10;

const U64_MAX = (1n << 64n) - 1n;

/** Unsigned LEB128 of a value in [0, 2^64). */
export function encodeUvarint(value: number | bigint): Uint8Array {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new WireError(
        "WIRE_VARINT_RANGE",
        `uvarint value must be a non-negative safe integer, got ${value}`,
      );
    if (value < 0x80) return Uint8Array.of(value);
    if (value <= 0xffffffff) {
      const out: number[] = [];
      let v = value;
      while (v >= 0x80) {
        out.push((v % 0x80) | 0x80);
        v = Math.floor(v / 0x80);
      }
      out.push(v);
      return Uint8Array.from(out);
    }
    value = BigInt(value);
  }
  if (value < 0n || value > U64_MAX)
    throw new WireError("WIRE_VARINT_RANGE", `uvarint value must be in [0, 2^64), got ${value}`);
  const out: number[] = [];
  let v = value;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

/** Zigzag varint of a signed 64-bit value (Go's binary.PutVarint). */
export function encodeZigzagVarint(value: number | bigint): Uint8Array {
  const v = BigInt(value);
  if (v < -(1n << 63n) || v >= 1n << 63n)
    throw new WireError("WIRE_VARINT_RANGE", `varint value must fit int64, got ${v}`);
  return encodeUvarint(v >= 0n ? v << 1n : (-v << 1n) - 1n);
}

/** Protobuf int64 varint: a negative value is its 64-bit two's complement (10 bytes). */
export function encodeInt64Varint(value: bigint): Uint8Array {
  return encodeUvarint(BigInt.asUintN(64, value));
}

export interface DecodedVarint {
  value: bigint;
  /** Bytes consumed. */
  length: number;
}

/**
 * Reads an unsigned varint at `offset`. Returns undefined when the input ends first (read more
 * and retry); throws on a varint longer than 10 bytes or above 2^64 - 1.
 */
export function decodeUvarint(bytes: Uint8Array, offset = 0): DecodedVarint | undefined {
  let result = 0n;
  let shift = 0n;
  for (let i = 0; i < MAX_VARINT_LENGTH; i++) {
    const at = offset + i;
    if (at >= bytes.length) return undefined;
    const byte = bytes[at]!;
    if (i === MAX_VARINT_LENGTH - 1 && byte > 1)
      throw new WireError("WIRE_VARINT_OVERFLOW", `uvarint at offset ${offset} overflows 64 bits`);
    result |= BigInt(byte & 0x7f) << shift;
    if (byte < 0x80) return { value: result, length: i + 1 };
    shift += 7n;
  }
  throw new WireError("WIRE_VARINT_OVERFLOW", `uvarint at offset ${offset} is longer than 10 bytes`);
}

/** Reads a zigzag varint at `offset` (Go's binary.Varint); undefined when the input ends first. */
export function decodeZigzagVarint(bytes: Uint8Array, offset = 0): DecodedVarint | undefined {
  const u = decodeUvarint(bytes, offset);
  if (u === undefined) return undefined;
  const value = u.value & 1n ? -(u.value >> 1n) - 1n : u.value >> 1n;
  return { value, length: u.length };
}

/** `uvarint(len(body)) ‖ body`: the protoio length-delimited form used by sign bytes and p2p. */
export function lengthPrefixed(body: Uint8Array): Uint8Array {
  const prefix = encodeUvarint(body.length);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}
