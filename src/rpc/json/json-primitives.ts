// The scalar conventions of Tendermint's JSON (reference §1.6), shared by both forms: 64-bit
// integers as decimal strings, HexBytes as upper-case hex, []byte as padded base64, times as
// RFC3339Nano in UTC with the fraction's trailing zeros trimmed (Go's zero time included).

import type { Timestamp } from "../../types/time.js";
import { timestampToRfc3339 } from "../../types/time.js";

const EMPTY = new Uint8Array(0);

function buffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Upper-case hex of bytes (HexBytes). A string is taken as hex already (a projection may hold a
 * hash as text) and only upper-cased.
 */
export function hexUpper(bytes: Uint8Array | string | undefined): string {
  if (bytes === undefined) return "";
  if (typeof bytes === "string") return bytes.toUpperCase();
  return bytes.length === 0 ? "" : buffer(bytes).toString("hex").toUpperCase();
}

/** Base64 (std, padded) of bytes; "" when empty. */
export function base64(bytes: Uint8Array | undefined): string {
  return bytes === undefined || bytes.length === 0 ? "" : buffer(bytes).toString("base64");
}

/** Base64, or null for empty bytes (a nil []byte in Go, and jsonpb's empty bytes). */
export function base64OrNull(bytes: Uint8Array | undefined): string | null {
  return bytes === undefined || bytes.length === 0 ? null : buffer(bytes).toString("base64");
}

/** An int64/uint64 as Go's JSON codecs write it: a decimal string. */
export function int64(value: bigint | number | undefined): string {
  if (value === undefined) return "0";
  return typeof value === "bigint" ? value.toString() : String(Math.trunc(value));
}

/** A 32-bit integer as a JSON number. */
export function int32(value: number | bigint | undefined): number {
  if (value === undefined) return 0;
  return typeof value === "bigint" ? Number(value) : value;
}

// Block times repeat across calls (status, metas, commits): the whole-second part is cached.
const SECONDS_TEXT = new Map<bigint, string>();
const SECONDS_TEXT_LIMIT = 1024;

function secondsText(seconds: bigint): string {
  let text = SECONDS_TEXT.get(seconds);
  if (text === undefined) {
    text = timestampToRfc3339({ seconds, nanos: 0 }).slice(0, -1);
    if (SECONDS_TEXT.size >= SECONDS_TEXT_LIMIT) SECONDS_TEXT.clear();
    SECONDS_TEXT.set(seconds, text);
  }
  return text;
}

/** RFC3339Nano, trimmed (Go's form, as src/types/time.ts writes it); absent is Go's zero time. */
export function rfc3339(time: Timestamp | undefined): string {
  if (time === undefined) return "0001-01-01T00:00:00Z";
  const base = secondsText(time.seconds);
  if (time.nanos === 0) return `${base}Z`;
  let fraction = String(time.nanos).padStart(9, "0");
  let end = fraction.length;
  while (fraction.charCodeAt(end - 1) === 0x30) end--;
  fraction = fraction.slice(0, end);
  return `${base}.${fraction}Z`;
}

export function bytesOrEmpty(bytes: Uint8Array | undefined): Uint8Array {
  return bytes ?? EMPTY;
}

/** Bytes as UTF-8 text (event attribute keys and values in query maps). */
export function utf8(bytes: Uint8Array | string): string {
  return typeof bytes === "string" ? bytes : buffer(bytes).toString("utf8");
}

/** Raw bytes from base64 text or bytes. */
export function bytesOf(value: Uint8Array | string | undefined): Uint8Array {
  if (value === undefined) return EMPTY;
  return typeof value === "string" ? new Uint8Array(Buffer.from(value, "base64")) : value;
}
