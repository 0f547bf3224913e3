// A small strict protobuf wire reader for the transport's own messages (BytesValue,
// AuthSigMessage, Packet, DefaultNodeInfo). Hand-written so a hostile peer's bytes are walked
// once, with every length checked against the buffer, and errors say which field was wrong.

import { CodedError } from "../coded-error.js";

/** Bytes that do not decode as the message read; callers turn it into their own verdict. */
export class ProtoDecodeError extends CodedError<"P2P_UNDECODABLE"> {
  constructor(message: string) {
    super("P2P_UNDECODABLE", message);
  }
}

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

export class ProtoReader {
  pos = 0;
  constructor(
    readonly bytes: Uint8Array,
    private readonly what: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  /** Field number and wire type of the next field. */
  tag(): { field: number; wire: number } {
    const key = this.varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) throw new ProtoDecodeError(`${this.what}: field number 0 at byte ${this.pos}`);
    return { field, wire };
  }

  /** An unsigned varint of up to 64 bits, as a number (exact up to 2^53). */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new ProtoDecodeError(`${this.what}: truncated varint`);
      const byte = this.bytes[this.pos++];
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) return value;
      scale *= 128;
    }
    throw new ProtoDecodeError(`${this.what}: varint longer than 10 bytes`);
  }

  /** An unsigned varint as a bigint (uint64 fields). */
  varintBig(): bigint {
    let value = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.bytes.length) throw new ProtoDecodeError(`${this.what}: truncated varint`);
      const byte = this.bytes[this.pos++];
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value & 0xffffffffffffffffn;
      shift += 7n;
    }
    throw new ProtoDecodeError(`${this.what}: varint longer than 10 bytes`);
  }

  /** A length-delimited field's bytes (a view into the input). */
  lengthDelimited(): Uint8Array {
    const length = this.varint();
    if (length > this.bytes.length - this.pos) {
      throw new ProtoDecodeError(`${this.what}: field length ${length} runs past the end`);
    }
    const out = this.bytes.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  string(): string {
    return new TextDecoder("utf-8", { fatal: false }).decode(this.lengthDelimited());
  }

  /** Skips a field of an unknown number, as protobuf decoders do. */
  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_I64:
        this.advance(8);
        return;
      case WIRE_LEN:
        this.lengthDelimited();
        return;
      case WIRE_I32:
        this.advance(4);
        return;
      default:
        throw new ProtoDecodeError(`${this.what}: unsupported wire type ${wire}`);
    }
  }

  /** Fails when a known field arrives with the wrong wire type (gogoproto's "wrong wireType"). */
  expect(field: number, wire: number, expected: number): void {
    if (wire !== expected) {
      throw new ProtoDecodeError(`${this.what}: field ${field} has wire type ${wire}, expected ${expected}`);
    }
  }

  private advance(n: number): void {
    if (n > this.bytes.length - this.pos) throw new ProtoDecodeError(`${this.what}: truncated fixed field`);
    this.pos += n;
  }
}

/** Appends protobuf fields; used for the few messages the transport writes itself. */
export class ProtoWriter {
  private parts: number[] = [];
  private out: Uint8Array[] = [];

  varintField(field: number, value: number | bigint): this {
    if (value === 0 || value === 0n) return this;
    this.key(field, WIRE_VARINT);
    this.varint(value);
    return this;
  }

  boolField(field: number, value: boolean): this {
    return value ? this.varintField(field, 1) : this;
  }

  /** bytes/string field; omitted when empty unless `always` (non-nullable sub-messages). */
  bytesField(field: number, value: Uint8Array | string, always = false): this {
    const bytes = typeof value === "string" ? new TextEncoder().encode(value) : value;
    if (bytes.length === 0 && !always) return this;
    this.key(field, WIRE_LEN);
    this.varint(bytes.length);
    this.flushParts();
    this.out.push(bytes);
    return this;
  }

  finish(): Uint8Array {
    this.flushParts();
    const total = this.out.reduce((n, b) => n + b.length, 0);
    const result = new Uint8Array(total);
    let at = 0;
    for (const b of this.out) {
      result.set(b, at);
      at += b.length;
    }
    return result;
  }

  private key(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  private varint(value: number | bigint): void {
    let v = BigInt(value);
    if (v < 0n) v &= 0xffffffffffffffffn;
    while (v >= 0x80n) {
      this.parts.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.parts.push(Number(v));
  }

  private flushParts(): void {
    if (this.parts.length > 0) {
      this.out.push(Uint8Array.from(this.parts));
      this.parts = [];
    }
  }
}

/** uvarint(len(body)) ‖ body. */
export function delimit(body: Uint8Array): Uint8Array {
  const prefix: number[] = [];
  let v = body.length;
  while (v >= 0x80) {
    prefix.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  prefix.push(v);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}
