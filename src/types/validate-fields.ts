// Field checks shared by the validators of decoded messages. Each throws TypesError
// (TYPES_INVALID_FIELD) naming the field path and what was expected.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { TypesError } from "./errors.js";

export const HASH_BYTES = 32;
export const ADDRESS_BYTES = 20;
export const MAX_SIGNATURE_BYTES = 64;
export const ED25519_PUBLIC_KEY_BYTES = 32;
export const SECP256K1_PUBLIC_KEY_BYTES = 33;
export const MAX_INT64 = (1n << 63n) - 1n;
/** Go's time range for protobuf timestamps: 0001-01-01 to 9999-12-31. */
export const MIN_TIMESTAMP_SECONDS = -62135596800n;
export const MAX_TIMESTAMP_SECONDS = 253402300799n;

export function fieldError(field: string, message: string): TypesError {
  return new TypesError("TYPES_INVALID_FIELD", `${field} ${message}`, field);
}

/** A hash: empty or exactly 32 bytes (ValidateHash). */
export function checkOptionalHash(field: string, bytes: Uint8Array): void {
  if (bytes.length !== 0 && bytes.length !== HASH_BYTES)
    throw fieldError(field, `must be empty or ${HASH_BYTES} bytes, got ${bytes.length}`);
}

export function checkHash(field: string, bytes: Uint8Array): void {
  if (bytes.length !== HASH_BYTES)
    throw fieldError(field, `must be ${HASH_BYTES} bytes, got ${bytes.length}`);
}

export function checkAddress(field: string, bytes: Uint8Array): void {
  if (bytes.length !== ADDRESS_BYTES)
    throw fieldError(field, `must be a ${ADDRESS_BYTES}-byte address, got ${bytes.length} bytes`);
}

export function checkSignature(field: string, bytes: Uint8Array): void {
  if (bytes.length === 0) throw fieldError(field, "is missing");
  if (bytes.length > MAX_SIGNATURE_BYTES)
    throw fieldError(field, `must be at most ${MAX_SIGNATURE_BYTES} bytes, got ${bytes.length}`);
}

export function checkHeight(field: string, height: bigint, allowZero = false): void {
  if (height < 0n || (!allowZero && height === 0n) || height > MAX_INT64)
    throw fieldError(field, `must be ${allowZero ? "≥ 0" : "> 0"} and fit int64, got ${height}`);
}

export function checkRound(field: string, round: number): void {
  if (!Number.isInteger(round) || round < 0 || round > 0x7fffffff)
    throw fieldError(field, `must be a non-negative int32, got ${round}`);
}

export function checkIndex(field: string, index: number): void {
  if (!Number.isInteger(index) || index < 0 || index > 0x7fffffff)
    throw fieldError(field, `must be a non-negative int32, got ${index}`);
}

/** Representable as Go's time.Time (what gogoproto's stdtime accepts). */
export function checkTimestamp(field: string, t: Timestamp): void {
  if (!Number.isInteger(t.nanos) || t.nanos < 0 || t.nanos > 999_999_999)
    throw fieldError(`${field}.nanos`, `must be in [0, 999999999], got ${t.nanos}`);
  if (t.seconds < MIN_TIMESTAMP_SECONDS || t.seconds > MAX_TIMESTAMP_SECONDS)
    throw fieldError(`${field}.seconds`, `must lie between years 0001 and 9999, got ${t.seconds}`);
}

export function checkMaxLength(field: string, length: number, max: number, unit = "bytes"): void {
  if (length > max) throw fieldError(field, `must be at most ${max} ${unit}, got ${length}`);
}
