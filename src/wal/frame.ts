// The record framing of the log: [length u32 BE][CRC-32C u32 BE][type u8][payload].
//
// `length` counts the bytes after the CRC (type byte + payload); the CRC covers the same bytes.
// A reader can so skip a record without decoding it, and find the end-of-height markers by their
// type byte alone while still checking every checksum.

import { crc32c, crc32cUpdate } from "./crc32c.js";
import { WalError } from "./errors.js";

export const FRAME_HEADER_SIZE = 8;
/** The largest payload the u32 length field can describe (it counts the type byte too). */
export const MAX_FRAME_PAYLOAD_BYTES = 0xffff_ffff - 1;

export const FrameType = {
  /** A consensus input, encoded by record-codec.ts. */
  Input: 0x01,
  /** End of a height: 8-byte big-endian height. Everything after it belongs to the next height. */
  EndHeight: 0x02,
  /**
   * The first record of every segment since format 2: the magic "RXBFTLOG" and the format
   * version (u16 big-endian). A segment without it is format 1 (written before the header).
   */
  Header: 0x03,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

const END_HEIGHT_PAYLOAD_SIZE = 8;

/**
 * The format this version writes. 1: no header, records are the record codec's values (their
 * shape checked by the reader's schema). 2: the same records after a header per segment. Both
 * are read; any other version is refused with file, offset and reason.
 */
export const LOG_FORMAT_VERSION = 2;
export const READABLE_LOG_FORMATS: readonly number[] = [1, 2];

const HEADER_MAGIC = new TextEncoder().encode("RXBFTLOG");
const HEADER_PAYLOAD_SIZE = HEADER_MAGIC.length + 2;

export function isFrameType(t: number): t is FrameType {
  return t === FrameType.Input || t === FrameType.EndHeight || t === FrameType.Header;
}

export function encodeHeaderPayload(version: number = LOG_FORMAT_VERSION): Uint8Array {
  const payload = new Uint8Array(HEADER_PAYLOAD_SIZE);
  payload.set(HEADER_MAGIC, 0);
  new DataView(payload.buffer).setUint16(HEADER_MAGIC.length, version, false);
  return payload;
}

/** The format version of a header payload, or undefined when it is not a header of ours. */
export function decodeHeaderPayload(payload: Uint8Array): number | undefined {
  if (payload.length !== HEADER_PAYLOAD_SIZE) return undefined;
  for (let i = 0; i < HEADER_MAGIC.length; i++) if (payload[i] !== HEADER_MAGIC[i]) return undefined;
  return new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint16(
    HEADER_MAGIC.length,
    false,
  );
}

/** Frames a payload. `maxPayloadBytes` is the configured bound; larger payloads are refused. */
export function encodeFrame(type: FrameType, payload: Uint8Array, maxPayloadBytes: number): Uint8Array {
  const head = encodeFrameHead(type, payload, maxPayloadBytes);
  const frame = new Uint8Array(head.length + payload.length);
  frame.set(head, 0);
  frame.set(payload, head.length);
  return frame;
}

/**
 * The bytes of a frame before its payload (length, CRC-32C, type), for a writer that writes the
 * payload from where it is instead of copying a large one into the frame.
 */
export function encodeFrameHead(type: FrameType, payload: Uint8Array, maxPayloadBytes: number): Uint8Array {
  if (payload.length > maxPayloadBytes) {
    throw new WalError(
      "WAL_RECORD_TOO_LARGE",
      `log record of ${payload.length} bytes exceeds the bound of ${maxPayloadBytes} bytes`,
    );
  }
  const head = new Uint8Array(FRAME_HEADER_SIZE + 1);
  head[FRAME_HEADER_SIZE] = type;
  const view = new DataView(head.buffer);
  view.setUint32(0, 1 + payload.length, false);
  view.setUint32(4, crc32cUpdate(crc32c(head, FRAME_HEADER_SIZE), payload), false);
  return head;
}

export function encodeEndHeightPayload(height: bigint): Uint8Array {
  const payload = new Uint8Array(END_HEIGHT_PAYLOAD_SIZE);
  new DataView(payload.buffer).setBigUint64(0, height, false);
  return payload;
}

/** The height of an end-of-height payload, or undefined when the payload has the wrong size. */
export function decodeEndHeightPayload(payload: Uint8Array): bigint | undefined {
  if (payload.length !== END_HEIGHT_PAYLOAD_SIZE) return undefined;
  return new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getBigUint64(0, false);
}

/** Why bytes at an offset are not a frame. */
export type FrameFault =
  | "short header"
  | "length out of bounds"
  | "short record"
  | "checksum mismatch"
  | "unknown record type"
  | "bad end-of-height marker"
  | "bad header";

export type FrameCheck =
  | { ok: true; type: FrameType; payloadStart: number; end: number }
  | { ok: false; fault: FrameFault; needMore: boolean };

/**
 * Checks the frame starting at `buf[at]`, where `buf[.., available)` holds the bytes read so
 * far. `needMore` is set when more bytes could change the verdict (the frame runs past them).
 */
export function checkFrame(
  buf: Uint8Array,
  at: number,
  available: number,
  maxPayloadBytes: number,
): FrameCheck {
  if (available - at < FRAME_HEADER_SIZE) return { ok: false, fault: "short header", needMore: true };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const length = view.getUint32(at, false);
  if (length < 1 || length > maxPayloadBytes + 1) {
    return { ok: false, fault: "length out of bounds", needMore: false };
  }
  const end = at + FRAME_HEADER_SIZE + length;
  if (end > available) return { ok: false, fault: "short record", needMore: true };
  // The type byte is checked before the checksum: cheaper, and it makes the search for good
  // frames after a bad one (segment-scanner.ts) skip most offsets without computing a CRC.
  const type = buf[at + FRAME_HEADER_SIZE]!;
  if (!isFrameType(type)) return { ok: false, fault: "unknown record type", needMore: false };
  if (crc32c(buf, at + FRAME_HEADER_SIZE, end) !== view.getUint32(at + 4, false)) {
    return { ok: false, fault: "checksum mismatch", needMore: false };
  }
  const sized = frameSizeFault(type, length);
  if (sized !== undefined) return { ok: false, fault: sized, needMore: false };
  return { ok: true, type, payloadStart: at + FRAME_HEADER_SIZE + 1, end };
}

/** Why a frame of `type` cannot have `length` (type byte + payload), or undefined when it can. */
export function frameSizeFault(type: FrameType, length: number): FrameFault | undefined {
  if (type === FrameType.EndHeight && length !== 1 + END_HEIGHT_PAYLOAD_SIZE)
    return "bad end-of-height marker";
  if (type === FrameType.Header && length !== 1 + HEADER_PAYLOAD_SIZE) return "bad header";
  return undefined;
}
