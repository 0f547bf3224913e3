// ABCI socket framing (v0.34): every Request/Response is preceded by its length written as a
// signed zigzag varint (Go's binary.PutVarint), so a length L is the unsigned varint of 2L. This is
// not the unsigned-varint framing of P2P or privval. Lengths above 100 MB, or negative, are errors.
import { AbciError } from "./errors.js";

/** Largest message either side may send (Tendermint's maxMsgSize). */
export const MAX_ABCI_MESSAGE_SIZE = 104_857_600;

/** Longest varint an int64 can take. */
const MAX_VARINT_BYTES = 10;

/** Bytes of the zigzag varint of a non-negative length. */
export function encodeLengthPrefix(length: number): Uint8Array {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`bad frame length ${length}`);
  const out: number[] = [];
  // 2L fits a double exactly for any length below 2^52.
  let v = length * 2;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** One framed message: length prefix followed by the payload. */
export function frameMessage(payload: Uint8Array): Uint8Array {
  const prefix = encodeLengthPrefix(payload.length);
  const out = new Uint8Array(prefix.length + payload.length);
  out.set(prefix, 0);
  out.set(payload, prefix.length);
  return out;
}

/** Result of reading a length prefix at an offset: undefined when more bytes are needed. */
export interface LengthPrefix {
  length: number;
  /** Bytes the prefix itself took. */
  size: number;
}

/**
 * Reads the zigzag varint length at `offset`. Returns undefined if the buffer ends inside the
 * varint; throws AbciError for a negative length, one above `maxSize`, or a varint over 10 bytes.
 */
export function readLengthPrefix(
  buf: Uint8Array,
  offset: number,
  maxSize = MAX_ABCI_MESSAGE_SIZE,
  where?: string,
): LengthPrefix | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    const at = offset + i;
    if (at >= buf.length) return undefined;
    const byte = buf[at]!;
    value += (byte & 0x7f) * scale;
    scale *= 0x80;
    if ((byte & 0x80) === 0) {
      if (i === MAX_VARINT_BYTES - 1 && byte > 1) break;
      // Zigzag: an odd raw value is a negative number. Precision above 2^53 does not matter since
      // anything that large is refused anyway.
      if (buf[offset]! & 1) {
        const negative = -Math.floor(value / 2) - 1;
        throw new AbciError("ABCI_FRAME_NEGATIVE_LENGTH", `negative message length ${negative}`, where);
      }
      const length = value / 2;
      if (length > maxSize) {
        throw new AbciError(
          "ABCI_FRAME_TOO_LARGE",
          `message length ${length} exceeds the maximum of ${maxSize} bytes`,
          where,
        );
      }
      return { length, size: i + 1 };
    }
  }
  throw new AbciError(
    "ABCI_FRAME_BAD_VARINT",
    "length prefix is not a valid varint (more than 10 bytes)",
    where,
  );
}

/**
 * Turns a stream of byte chunks into whole message payloads. A large message is gathered as a list
 * of chunks and joined once, so a 100 MB frame costs one copy, not one per chunk.
 */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);
  private parts: Buffer[] = [];
  private partsLength = 0;
  /** Total bytes (prefix + payload) the frame being gathered needs; 0 when unknown. */
  private needed = 0;

  constructor(
    private readonly maxSize = MAX_ABCI_MESSAGE_SIZE,
    private readonly where?: string,
  ) {}

  /** Bytes held that are not yet a whole message. */
  get buffered(): number {
    return this.pending.length + this.partsLength;
  }

  /** Feeds a chunk; returns the payloads completed by it, in order. Throws AbciError on bad framing. */
  push(chunk: Uint8Array): Uint8Array[] {
    const data = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.needed > 0) {
      this.parts.push(data);
      this.partsLength += data.length;
      if (this.pending.length + this.partsLength < this.needed) return [];
      this.pending = Buffer.concat([this.pending, ...this.parts]);
      this.parts = [];
      this.partsLength = 0;
      this.needed = 0;
    } else {
      this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
    }
    const out: Uint8Array[] = [];
    let offset = 0;
    const buf = this.pending;
    while (offset < buf.length) {
      const prefix = readLengthPrefix(buf, offset, this.maxSize, this.where);
      if (prefix === undefined) break;
      const end = offset + prefix.size + prefix.length;
      if (end > buf.length) {
        this.needed = end - offset;
        break;
      }
      out.push(buf.subarray(offset + prefix.size, end));
      offset = end;
    }
    this.pending = offset === 0 ? buf : buf.subarray(offset);
    if (this.pending.length === 0) this.pending = Buffer.alloc(0);
    return out;
  }
}
