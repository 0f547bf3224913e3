// A deterministic binary codec for log records: plain values with bigints and byte arrays.
//
// The log stores consensus inputs, which are plain data (objects, arrays, strings, numbers,
// bigints, Uint8Arrays, booleans, null, undefined). JSON cannot carry bigint or bytes without a
// tagging pass, and is larger and slower than a tagged binary form (see test/bench/wal.bench.ts),
// so each value is written as one tag byte and a body:
//
//   0x00 undefined   0x01 null   0x02 false   0x03 true
//   0x04 integer     zigzag LEB128 of an integer with |n| <= 2^51 (not -0)
//   0x05 float       IEEE-754 float64, little-endian (every other number: -0, NaN, ±∞, fractions,
//                    integers beyond 2^51)
//   0x06 bigint      zigzag LEB128 of any size up to MAX_BIGINT_VARINT_BYTES
//   0x07 string      LEB128 byte length, UTF-8 bytes
//   0x08 bytes       LEB128 length, raw bytes (decodes to Uint8Array)
//   0x09 array       LEB128 count, values
//   0x0a object      LEB128 count, then (LEB128 key length, UTF-8 key, value) with keys sorted
//
// Keys are sorted (by UTF-16 code units, JavaScript's default order), so equal values encode to
// equal bytes whatever order their properties were created in; that makes the encoding usable
// for comparing states byte for byte. The decoder accepts only the canonical form (minimal
// varints, sorted unique keys, integers not written as floats), so encode(decode(b)) === b for
// every b it accepts. Undefined properties are kept: {a: undefined} and {} are different records.
// Objects decode with Object.prototype (a null-prototype object encodes like a plain one).

import { WalError } from "./errors.js";
import { takeRecordItems } from "./record-ahead.js";

export const MAX_DEPTH = 64;
export const MAX_BIGINT_VARINT_BYTES = 160; // a bigint of up to 1119 bits

const TAG_UNDEFINED = 0x00;
const TAG_NULL = 0x01;
const TAG_FALSE = 0x02;
const TAG_TRUE = 0x03;
const TAG_INT = 0x04;
const TAG_FLOAT = 0x05;
const TAG_BIGINT = 0x06;
const TAG_STRING = 0x07;
const TAG_BYTES = 0x08;
const TAG_ARRAY = 0x09;
const TAG_OBJECT = 0x0a;

// Integers written with TAG_INT: their zigzag form (2|n|) stays a safe integer.
const MAX_TAGGED_INT = 2 ** 51;

// String.prototype.isWellFormed is in Node 20 but not in the ES2023 type library.
type WellFormedCheck = string & { isWellFormed(): boolean };

/** A growable output buffer, reused across encode calls (encoding is synchronous). */
class Out {
  buf: Uint8Array;
  view: DataView;
  pos = 0;
  /** Keys and indices from the root to the value being written, for error messages only. */
  readonly path: Array<string | number> = [];
  /**
   * Set while encodeRecordInPieces runs: arrays whose items were encoded ahead (record-ahead.ts)
   * are linked here as chunks, each after the bytes written before it (`cut`: where they end in `buf`).
   */
  linked: { chunks: readonly Uint8Array[]; checks: readonly number[]; cut: number }[] | undefined;
  constructor(initial: number) {
    this.buf = new Uint8Array(initial);
    this.view = new DataView(this.buf.buffer);
  }
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }
  /** LEB128 of a non-negative safe integer. */
  uvarint(n: number): void {
    this.ensure(8);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  utf8(s: string): void {
    // Most strings here are short ASCII (type names, keys, hex ids): copy them byte by byte,
    // which is several times faster than a Buffer round trip.
    const n = s.length;
    this.ensure(n + 8);
    const lengthAt = this.pos;
    if (n < 0x80) {
      let i = 0;
      const buf = this.buf;
      let p = lengthAt + 1;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[p++] = c;
      }
      if (i === n) {
        buf[lengthAt] = n;
        this.pos = p;
        return;
      }
    }
    if (!(s as WellFormedCheck).isWellFormed())
      throw unencodable(`a string with a lone surrogate at ${this.where()}`);
    const len = Buffer.byteLength(s, "utf8");
    this.uvarint(len);
    this.ensure(len);
    Buffer.from(this.buf.buffer, this.buf.byteOffset, this.buf.length).write(s, this.pos, "utf8");
    this.pos += len;
  }
  where(): string {
    return `$${this.path.map((k) => (typeof k === "number" ? `[${k}]` : `.${k}`)).join("")}`;
  }
}

const INITIAL_OUT_BYTES = 64 * 1024;
let shared: Out | undefined = new Out(INITIAL_OUT_BYTES);

function unencodable(what: string): WalError {
  return new WalError("WAL_UNENCODABLE", `log record codec cannot encode ${what}`);
}

function undecodable(what: string, offset: number): WalError {
  return new WalError("WAL_UNDECODABLE", `log record payload is invalid at byte ${offset}: ${what}`, {
    offset,
  });
}

function isTaggedInt(n: number): boolean {
  return Number.isInteger(n) && Math.abs(n) <= MAX_TAGGED_INT && !Object.is(n, -0);
}

/** Encodes a plain value. Throws WAL_UNENCODABLE for values outside the model above. */
export function encodeRecord(value: unknown): Uint8Array {
  // A getter that encodes from inside an encode gets its own buffer.
  const out = shared ?? new Out(256);
  shared = undefined;
  try {
    out.pos = 0;
    out.path.length = 0;
    writeValue(out, value, 0);
    return out.buf.slice(0, out.pos);
  } finally {
    // Do not keep a buffer grown by one huge record.
    shared = out.buf.length > 16 * INITIAL_OUT_BYTES ? new Out(INITIAL_OUT_BYTES) : out;
  }
}

/**
 * A record as pieces to be written one after another: the bytes are encodeRecord's, but the items
 * of an array encoded ahead (record-ahead.ts) are the chunks made then, not copied again.
 * `checks[i]` is the CRC-32C of `pieces[i]` when it is known already (a chunk's), else undefined.
 */
export interface RecordPieces {
  readonly pieces: readonly Uint8Array[];
  readonly checks: readonly (number | undefined)[];
  readonly length: number;
}

/** encodeRecord's bytes as pieces, linking the chunks of arrays encoded ahead (see RecordPieces). */
export function encodeRecordInPieces(value: unknown): RecordPieces {
  const out = shared ?? new Out(256);
  shared = undefined;
  try {
    out.pos = 0;
    out.path.length = 0;
    out.linked = [];
    writeValue(out, value, 0);
    const linked = out.linked;
    if (linked.length === 0) {
      const bytes = out.buf.slice(0, out.pos);
      return { pieces: [bytes], checks: [undefined], length: bytes.length };
    }
    const pieces: Uint8Array[] = [];
    const checks: (number | undefined)[] = [];
    let from = 0;
    let length = out.pos;
    for (const { chunks, checks: chunkChecks, cut } of linked) {
      if (cut > from) {
        pieces.push(out.buf.slice(from, cut));
        checks.push(undefined);
      }
      for (let i = 0; i < chunks.length; i++) {
        pieces.push(chunks[i]!);
        checks.push(chunkChecks[i]);
        length += chunks[i]!.length;
      }
      from = cut;
    }
    if (out.pos > from) {
      pieces.push(out.buf.slice(from, out.pos));
      checks.push(undefined);
    }
    return { pieces, checks, length };
  } finally {
    out.linked = undefined;
    shared = out.buf.length > 16 * INITIAL_OUT_BYTES ? new Out(INITIAL_OUT_BYTES) : out;
  }
}

function writeValue(out: Out, value: unknown, depth: number): void {
  switch (typeof value) {
    case "undefined":
      out.byte(TAG_UNDEFINED);
      return;
    case "boolean":
      out.byte(value ? TAG_TRUE : TAG_FALSE);
      return;
    case "number":
      if (isTaggedInt(value)) {
        out.byte(TAG_INT);
        out.uvarint(value >= 0 ? value * 2 : -value * 2 - 1);
      } else {
        out.byte(TAG_FLOAT);
        out.ensure(8);
        out.view.setFloat64(out.pos, value, true);
        out.pos += 8;
      }
      return;
    case "bigint":
      out.byte(TAG_BIGINT);
      writeBigZigzag(out, value);
      return;
    case "string":
      out.byte(TAG_STRING);
      out.utf8(value);
      return;
    case "object":
      break;
    default:
      throw unencodable(`a ${typeof value} at ${out.where()}`);
  }
  if (value === null) {
    out.byte(TAG_NULL);
    return;
  }
  if (depth >= MAX_DEPTH) throw unencodable(`nesting deeper than ${MAX_DEPTH} at ${out.where()}`);
  if (value instanceof Uint8Array) {
    out.byte(TAG_BYTES);
    out.uvarint(value.length);
    out.bytes(value);
    return;
  }
  if (Array.isArray(value)) {
    out.byte(TAG_ARRAY);
    out.uvarint(value.length);
    const ahead = out.linked === undefined ? undefined : takeRecordItems(value);
    if (ahead !== undefined) {
      out.linked!.push({ chunks: ahead.chunks, checks: ahead.checks, cut: out.pos });
      return;
    }
    for (let i = 0; i < value.length; i++) {
      out.path.push(i);
      writeValue(out, value[i], depth + 1);
      out.path.pop();
    }
    return;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw unencodable(`an instance of ${proto?.constructor?.name ?? "a class"} at ${out.where()}`);
  }
  const keys = Object.keys(value);
  sortKeys(keys);
  out.byte(TAG_OBJECT);
  out.uvarint(keys.length);
  for (const key of keys) {
    out.path.push(key);
    out.utf8(key);
    writeValue(out, (value as Record<string, unknown>)[key], depth + 1);
    out.path.pop();
  }
}

/** Objects with more keys than this are sorted by Array.prototype.sort (insertion sort is quadratic). */
const INSERTION_SORT_KEYS = 32;

/**
 * Sorts `keys` in place in Array.prototype.sort's default order (UTF-16 code units, which is what
 * `<` compares). Every logged input is objects of a few keys, and sort() allocated a work array
 * for each of them: a tenth of an idle node's allocations (issue 19 item 7, docs/storage.md). An
 * insertion sort allocates nothing and does one comparison per key when they come in order.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > INSERTION_SORT_KEYS) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
}

/** Made once: BigInt(…) in the check below allocated a bigint per encoded bigint. */
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

function writeBigZigzag(out: Out, value: bigint): void {
  let z = value >= 0n ? value << 1n : (-value << 1n) - 1n;
  if (z <= MAX_SAFE_BIGINT) {
    out.uvarint(Number(z));
    return;
  }
  // Large values: 56 bits at a time through a Number, then LEB128 of each 7-bit group.
  const start = out.pos;
  while (z > 0n) {
    if (out.pos - start >= MAX_BIGINT_VARINT_BYTES) throw unencodable(`a bigint too large at ${out.where()}`);
    const group = Number(z & 0x7fn);
    z >>= 7n;
    out.byte(z > 0n ? group | 0x80 : group);
  }
}

/** Decodes a canonical encoding. Throws WAL_UNDECODABLE naming the byte offset of the problem. */
export function decodeRecord(bytes: Uint8Array): unknown {
  // One copy of the payload; byte fields are views into it: one allocation per record instead of
  // one per field (the caller's buffer is usually a reused read buffer, so it cannot be shared).
  const reader = new In(bytes.slice());
  const value = reader.value(0);
  if (reader.pos !== bytes.length) throw undecodable("trailing bytes after the value", reader.pos);
  return value;
}

const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

const KEY_CACHE_LIMIT = 4096;
const keyCache = new Map<number, string>();

class In {
  pos = 0;
  private readonly view: DataView;
  constructor(private readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  value(depth: number): unknown {
    const at = this.pos;
    if (at >= this.buf.length) throw undecodable("unexpected end of payload", at);
    const tag = this.buf[this.pos++]!;
    switch (tag) {
      case TAG_UNDEFINED:
        return undefined;
      case TAG_NULL:
        return null;
      case TAG_FALSE:
        return false;
      case TAG_TRUE:
        return true;
      case TAG_INT: {
        const z = this.uvarint();
        if (z > 2 * MAX_TAGGED_INT) throw undecodable("integer beyond 2^51", at);
        return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
      }
      case TAG_FLOAT: {
        this.need(8);
        const n = this.view.getFloat64(this.pos, true);
        if (isTaggedInt(n)) throw undecodable("a small integer written as a float", at);
        this.pos += 8;
        return n;
      }
      case TAG_BIGINT:
        return this.bigZigzag();
      case TAG_STRING:
        return this.utf8();
      case TAG_BYTES: {
        const len = this.uvarint();
        this.need(len);
        const b = this.buf.subarray(this.pos, this.pos + len);
        this.pos += len;
        return b;
      }
      case TAG_ARRAY: {
        if (depth >= MAX_DEPTH) throw undecodable(`nesting deeper than ${MAX_DEPTH}`, at);
        const count = this.uvarint();
        // Every element takes at least one byte: a count beyond the payload is a lie, refused
        // before anything is allocated.
        this.need(count);
        const arr: unknown[] = new Array(count);
        for (let i = 0; i < count; i++) arr[i] = this.value(depth + 1);
        return arr;
      }
      case TAG_OBJECT: {
        if (depth >= MAX_DEPTH) throw undecodable(`nesting deeper than ${MAX_DEPTH}`, at);
        const count = this.uvarint();
        this.need(count * 2);
        const obj: Record<string, unknown> = {};
        let previous: string | undefined;
        for (let i = 0; i < count; i++) {
          const keyAt = this.pos;
          const key = this.key();
          if (previous !== undefined && !(previous < key)) throw undecodable("object keys not sorted", keyAt);
          previous = key;
          const v = this.value(depth + 1);
          // Own property even for "__proto__", which plain assignment would turn into a prototype.
          if (key === "__proto__")
            Object.defineProperty(obj, key, {
              value: v,
              enumerable: true,
              writable: true,
              configurable: true,
            });
          else obj[key] = v;
        }
        return obj;
      }
      default:
        throw undecodable(`unknown tag 0x${tag.toString(16)}`, at);
    }
  }

  private need(n: number): void {
    if (n > this.buf.length - this.pos) throw undecodable(`${n} bytes needed, payload ends`, this.pos);
  }

  /** LEB128 of a safe integer, minimal form only. */
  private uvarint(): number {
    const at = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; ; i++) {
      if (this.pos >= this.buf.length) throw undecodable("varint runs past the payload", at);
      if (i >= 8) throw undecodable("varint longer than a safe integer", at);
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) {
        if (b === 0 && i > 0) throw undecodable("varint not in minimal form", at);
        if (!Number.isSafeInteger(result)) throw undecodable("varint beyond a safe integer", at);
        return result;
      }
      scale *= 0x80;
    }
  }

  private bigZigzag(): bigint {
    const at = this.pos;
    let end = this.pos;
    while (true) {
      if (end >= this.buf.length) throw undecodable("bigint varint runs past the payload", at);
      if (end - at >= MAX_BIGINT_VARINT_BYTES) throw undecodable("bigint varint too long", at);
      if ((this.buf[end++]! & 0x80) === 0) break;
    }
    const len = end - at;
    if (len > 1 && this.buf[end - 1] === 0) throw undecodable("bigint varint not in minimal form", at);
    let z: bigint;
    if (len <= 7) {
      // Up to 49 bits: exact in a Number.
      let n = 0;
      let scale = 1;
      for (let i = at; i < end; i++) {
        n += (this.buf[i]! & 0x7f) * scale;
        scale *= 0x80;
      }
      z = BigInt(n);
    } else {
      z = 0n;
      for (let i = end - 1; i >= at; i--) z = (z << 7n) | BigInt(this.buf[i]! & 0x7f);
    }
    this.pos = end;
    return (z & 1n) === 0n ? z >> 1n : -((z + 1n) >> 1n);
  }

  /**
   * An object key. Records repeat the same few keys endlessly, so short ASCII keys come from a
   * cache (by a hash of their bytes, checked byte for byte): no string is built per key, and V8
   * finds the same internalized string for every object of a shape.
   */
  private key(): string {
    const at = this.pos;
    const len = this.buf[at]!;
    if (len === 0 || len > 40 || at + 1 + len > this.buf.length) return this.utf8();
    let hash = len;
    for (let i = at + 1; i <= at + len; i++) {
      const b = this.buf[i]!;
      if (b >= 0x80) return this.utf8();
      hash = (Math.imul(hash, 31) + b) | 0;
    }
    const cached = keyCache.get(hash);
    if (cached !== undefined && cached.length === len) {
      let same = true;
      for (let i = 0; i < len; i++) {
        if (cached.charCodeAt(i) !== this.buf[at + 1 + i]) {
          same = false;
          break;
        }
      }
      if (same) {
        this.pos = at + 1 + len;
        return cached;
      }
    }
    const key = this.utf8();
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
    keyCache.set(hash, key);
    return key;
  }

  private utf8(): string {
    const len = this.uvarint();
    this.need(len);
    const at = this.pos;
    this.pos += len;
    // Short ASCII strings (the usual case) without a TextDecoder call, which costs more than the copy.
    if (len <= 32) {
      let ascii = "";
      let i = at;
      for (; i < at + len; i++) {
        const b = this.buf[i]!;
        if (b >= 0x80) break;
        ascii += String.fromCharCode(b);
      }
      if (i === at + len) return ascii;
    }
    try {
      return utf8Decoder.decode(this.buf.subarray(at, at + len));
    } catch {
      throw undecodable("a string that is not valid UTF-8", at);
    }
  }
}
