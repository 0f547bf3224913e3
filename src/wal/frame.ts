// The record framing of the log.
//
// Formats 1 and 2 ("plain" frames): [length u32 BE][CRC-32C u32 BE][type u8][payload]. `length`
// counts the type byte and the payload; the CRC covers the same bytes.
//
// Format 3 ("keyed" frames): [length u32 BE][body check u32 BE][type u8][head check u32 BE][payload].
// The body check is CRC-32C over the segment's body key, the type byte and the payload; the head
// check is CRC-32C over the segment's head key and the first nine bytes (length, body check, type).
// The two 4-byte keys are random per segment, kept in its header record and nowhere else, so bytes
// someone outside the node chose (a tx) pass as a frame only by guessing both keys (a CRC keyed by
// a prefix holds at most 32 bits of it: a prefix enters a CRC only modulo its degree-32 polynomial,
// hence two keys of 4 bytes rather than one longer). The head check lets a reader trust a length
// before reading the payload: the search after a bad frame rejects an offset in constant time, and
// skips the whole extent of a torn record whose head is intact (docs/storage.md, "A tx cannot make
// a crashed node's log unreadable").
//
// A reader can so skip a record without decoding it, and find the end-of-height markers by their
// type byte alone while still checking every checksum.

import { crc32c, crc32cCombine, crc32cUpdate } from "./crc32c.js";
import { WalError } from "./errors.js";

/** The bytes of a plain frame before its type byte (length and CRC). */
export const FRAME_HEADER_SIZE = 8;
/** The bytes of a keyed frame's head after its type byte (the head check). */
const HEAD_CHECK_SIZE = 4;
/** The longest head of any format (a keyed frame's), for a reader that judges heads in a window. */
export const MAX_FRAME_HEAD_BYTES = FRAME_HEADER_SIZE + 1 + HEAD_CHECK_SIZE;
/** The random bytes of a format-3 segment header: the head key, then the body key. */
export const SEGMENT_KEY_BYTES = 8;

/**
 * How the frames of one segment are checked. `keys` holds the CRC-32C of the segment's head key
 * and of its body key (the running CRC a check starts from), or is absent for plain frames.
 */
export interface FrameScheme {
  /** Bytes before the payload: 9 for plain frames, 13 for keyed ones. */
  readonly headBytes: number;
  readonly keys?: { readonly head: number; readonly body: number };
}

/** Frames of formats 1 and 2, and every segment header record. */
export const PLAIN_FRAMES: FrameScheme = { headBytes: FRAME_HEADER_SIZE + 1 };

/** The scheme of a format-3 segment whose header holds `keys` (SEGMENT_KEY_BYTES bytes). */
export function keyedFrames(keys: Uint8Array): FrameScheme {
  if (keys.length !== SEGMENT_KEY_BYTES) throw new Error(`segment keys must be ${SEGMENT_KEY_BYTES} bytes`);
  return {
    headBytes: MAX_FRAME_HEAD_BYTES,
    keys: { head: crc32c(keys, 0, 4), body: crc32c(keys, 4, 8) },
  };
}
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
  /**
   * The in-node signer's last-sign state after a signature (src/privval/log-sync.ts), appended
   * before the sync that releases it, so the log is that signature's durable record. Its payload
   * is the signer's own; readers of inputs skip it.
   */
  Signed: 0x04,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

const END_HEIGHT_PAYLOAD_SIZE = 8;

/**
 * The format this version writes. 1: no header, records are the record codec's values (their
 * shape checked by the reader's schema). 2: the same records after a header per segment. 3: the
 * header carries the segment's two random keys and every later frame is keyed. All three are read;
 * any other version is refused with file, offset and reason.
 */
export const LOG_FORMAT_VERSION = 3;
export const READABLE_LOG_FORMATS: readonly number[] = [1, 2, 3];
/** The first format whose segments' frames are keyed. */
export const KEYED_LOG_FORMAT = 3;

const HEADER_MAGIC = new TextEncoder().encode("RXBFTLOG");
const HEADER_PAYLOAD_SIZE = HEADER_MAGIC.length + 2;
const KEYED_HEADER_PAYLOAD_SIZE = HEADER_PAYLOAD_SIZE + SEGMENT_KEY_BYTES;

export function isFrameType(t: number): t is FrameType {
  return (
    t === FrameType.Input || t === FrameType.EndHeight || t === FrameType.Header || t === FrameType.Signed
  );
}

/**
 * The header payload of a segment of plain frames (format 2; other versions for tests of refusal).
 * A format-3 header is encodeKeyedHeaderPayload's.
 */
export function encodeHeaderPayload(version = 2): Uint8Array {
  const payload = new Uint8Array(HEADER_PAYLOAD_SIZE);
  payload.set(HEADER_MAGIC, 0);
  new DataView(payload.buffer).setUint16(HEADER_MAGIC.length, version, false);
  return payload;
}

/** The header payload of a format-3 segment: magic, version 3, the segment's keys. */
export function encodeKeyedHeaderPayload(keys: Uint8Array): Uint8Array {
  if (keys.length !== SEGMENT_KEY_BYTES) throw new Error(`segment keys must be ${SEGMENT_KEY_BYTES} bytes`);
  const payload = new Uint8Array(KEYED_HEADER_PAYLOAD_SIZE);
  payload.set(encodeHeaderPayload(KEYED_LOG_FORMAT), 0);
  payload.set(keys, HEADER_PAYLOAD_SIZE);
  return payload;
}

/**
 * The format version of a header payload, or undefined when it is not a header of ours: keyed
 * formats (3 on) carry the keys, earlier ones do not.
 */
export function decodeHeaderPayload(payload: Uint8Array): number | undefined {
  if (payload.length !== HEADER_PAYLOAD_SIZE && payload.length !== KEYED_HEADER_PAYLOAD_SIZE)
    return undefined;
  for (let i = 0; i < HEADER_MAGIC.length; i++) if (payload[i] !== HEADER_MAGIC[i]) return undefined;
  const version = new DataView(payload.buffer, payload.byteOffset, payload.byteLength).getUint16(
    HEADER_MAGIC.length,
    false,
  );
  // A version this code reads must have its own size (format 3 its keys); a later version's size is
  // not known here, and its header is refused by version (log-format.ts).
  const keyed = payload.length === KEYED_HEADER_PAYLOAD_SIZE;
  if (version <= KEYED_LOG_FORMAT && keyed !== (version === KEYED_LOG_FORMAT)) return undefined;
  return version;
}

/**
 * The scheme of the frames after a segment header of `payload`. A header this code does not read
 * is refused by its reader (log-format.ts) before any frame after it is used; plain until then.
 */
export function schemeAfterHeader(payload: Uint8Array): FrameScheme {
  const version = decodeHeaderPayload(payload);
  if (version === KEYED_LOG_FORMAT) return keyedFrames(payload.subarray(HEADER_PAYLOAD_SIZE));
  return PLAIN_FRAMES;
}

/**
 * The keys of a damaged format-3 header, read where they would be if only other bytes of it are
 * damaged (its length, type, magic and version still say format 3), or undefined when the bytes
 * at the start of a segment do not say so: then the segment's format is unknown.
 */
export function keysOfDamagedHeader(start: Uint8Array): Uint8Array | undefined {
  const headerFrame = FRAME_HEADER_SIZE + 1 + KEYED_HEADER_PAYLOAD_SIZE;
  if (start.length < headerFrame) return undefined;
  const version = decodeHeaderPayload(start.subarray(FRAME_HEADER_SIZE + 1, headerFrame));
  return version === KEYED_LOG_FORMAT ? start.slice(headerFrame - SEGMENT_KEY_BYTES, headerFrame) : undefined;
}

/** The size of the header frame of a segment of `scheme` (what a writer puts first). */
export function headerFrameBytes(scheme: FrameScheme): number {
  return FRAME_HEADER_SIZE + 1 + (scheme.keys ? KEYED_HEADER_PAYLOAD_SIZE : HEADER_PAYLOAD_SIZE);
}

/**
 * Frames a payload (plain unless `scheme` is a segment's keyed one). `maxPayloadBytes` is the
 * configured bound; larger payloads are refused.
 */
export function encodeFrame(
  type: FrameType,
  payload: Uint8Array,
  maxPayloadBytes: number,
  scheme: FrameScheme = PLAIN_FRAMES,
): Uint8Array {
  const head = encodeFrameHead(type, payload, maxPayloadBytes, scheme);
  const frame = new Uint8Array(head.length + payload.length);
  frame.set(head, 0);
  frame.set(payload, head.length);
  return frame;
}

/**
 * The bytes of a frame before its payload (length, CRC-32C, type, and a keyed frame's head check),
 * for a writer that writes the payload from where it is instead of copying a large one into the frame.
 */
export function encodeFrameHead(
  type: FrameType,
  payload: Uint8Array,
  maxPayloadBytes: number,
  scheme: FrameScheme = PLAIN_FRAMES,
): Uint8Array {
  return encodeFrameHeadOfPieces(type, [payload], [undefined], payload.length, maxPayloadBytes, scheme);
}

/**
 * encodeFrameHead for a payload written as `pieces` one after another (`length` bytes in all): a
 * piece whose CRC-32C is given in `checks` (made ahead, record-ahead.ts) is not read again, its
 * check is combined into the frame's.
 */
export function encodeFrameHeadOfPieces(
  type: FrameType,
  pieces: readonly Uint8Array[],
  checks: readonly (number | undefined)[],
  length: number,
  maxPayloadBytes: number,
  scheme: FrameScheme = PLAIN_FRAMES,
): Uint8Array {
  if (length > maxPayloadBytes) {
    throw new WalError(
      "WAL_RECORD_TOO_LARGE",
      `log record of ${length} bytes exceeds the bound of ${maxPayloadBytes} bytes`,
    );
  }
  const head = new Uint8Array(scheme.headBytes);
  head[FRAME_HEADER_SIZE] = type;
  const view = new DataView(head.buffer);
  view.setUint32(0, 1 + length, false);
  const keys = scheme.keys;
  let body = crc32cUpdate(keys?.body ?? 0, head, FRAME_HEADER_SIZE, FRAME_HEADER_SIZE + 1);
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    const check = checks[i];
    body = check === undefined ? crc32cUpdate(body, piece) : crc32cCombine(body, check, piece.length);
  }
  view.setUint32(4, body, false);
  if (keys)
    view.setUint32(FRAME_HEADER_SIZE + 1, crc32cUpdate(keys.head, head, 0, FRAME_HEADER_SIZE + 1), false);
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
  | "head checksum mismatch"
  | "unknown record type"
  | "bad end-of-height marker"
  | "bad header";

export type FrameCheck =
  | { ok: true; type: FrameType; payloadStart: number; end: number }
  | { ok: false; fault: FrameFault; needMore: boolean };

/**
 * Checks the frame starting at `buf[at]`, where `buf[.., available)` holds the bytes read so
 * far, under the segment's `scheme`. `needMore` is set when more bytes could change the verdict
 * (the frame runs past them). A keyed frame's head is judged before its size: a short record of a
 * keyed segment has a head the segment's keys vouch for.
 */
export function checkFrame(
  buf: Uint8Array,
  at: number,
  available: number,
  maxPayloadBytes: number,
  scheme: FrameScheme = PLAIN_FRAMES,
): FrameCheck {
  if (available - at < scheme.headBytes) return { ok: false, fault: "short header", needMore: true };
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const length = view.getUint32(at, false);
  if (length < 1 || length > maxPayloadBytes + 1) {
    return { ok: false, fault: "length out of bounds", needMore: false };
  }
  const type = buf[at + FRAME_HEADER_SIZE]!;
  const keys = scheme.keys;
  if (keys) {
    if (!isKeyedFrameType(type)) return { ok: false, fault: "unknown record type", needMore: false };
    const head = crc32cUpdate(keys.head, buf, at, at + FRAME_HEADER_SIZE + 1);
    if (head !== view.getUint32(at + FRAME_HEADER_SIZE + 1, false)) {
      return { ok: false, fault: "head checksum mismatch", needMore: false };
    }
  }
  const end = at + scheme.headBytes - 1 + length;
  if (end > available) return { ok: false, fault: "short record", needMore: true };
  // The type byte is checked before the checksum: cheaper, and it makes the search for good
  // frames after a bad one (segment-scanner.ts) skip most offsets without computing a CRC.
  if (!isFrameType(type)) return { ok: false, fault: "unknown record type", needMore: false };
  if (frameBodyCheck(buf, at, end, scheme) !== view.getUint32(at + 4, false)) {
    return { ok: false, fault: "checksum mismatch", needMore: false };
  }
  const sized = frameSizeFault(type, length);
  if (sized !== undefined) return { ok: false, fault: sized, needMore: false };
  return { ok: true, type, payloadStart: at + scheme.headBytes, end };
}

/** The types a keyed frame may have: the header is a plain frame at the start of its segment only. */
export function isKeyedFrameType(t: number): boolean {
  return t === FrameType.Input || t === FrameType.EndHeight || t === FrameType.Signed;
}

/** The body check of the frame at `buf[at, end)`: its type byte and payload under the scheme's body key. */
function frameBodyCheck(buf: Uint8Array, at: number, end: number, scheme: FrameScheme): number {
  const typeEnd = at + FRAME_HEADER_SIZE + 1;
  const afterType = crc32cUpdate(scheme.keys?.body ?? 0, buf, at + FRAME_HEADER_SIZE, typeEnd);
  return crc32cUpdate(afterType, buf, at + scheme.headBytes, end);
}

/**
 * Whether a frame head (at least `scheme.headBytes` bytes at `buf[at]`) is one the scheme's keys
 * vouch for: true only for keyed frames whose head check holds. Its length is then the writer's.
 */
export function isVouchedHead(buf: Uint8Array, at: number, scheme: FrameScheme): boolean {
  const keys = scheme.keys;
  if (!keys) return false;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  return (
    crc32cUpdate(keys.head, buf, at, at + FRAME_HEADER_SIZE + 1) ===
    view.getUint32(at + FRAME_HEADER_SIZE + 1, false)
  );
}

/** The running check of a keyed or plain frame's type byte, from which its payload's CRC streams. */
export function bodyCheckSeed(type: number, scheme: FrameScheme): number {
  return crc32cUpdate(scheme.keys?.body ?? 0, Uint8Array.of(type));
}

/** Why a frame of `type` cannot have `length` (type byte + payload), or undefined when it can. */
export function frameSizeFault(type: FrameType, length: number): FrameFault | undefined {
  if (type === FrameType.EndHeight && length !== 1 + END_HEIGHT_PAYLOAD_SIZE)
    return "bad end-of-height marker";
  if (
    type === FrameType.Header &&
    length !== 1 + HEADER_PAYLOAD_SIZE &&
    length !== 1 + KEYED_HEADER_PAYLOAD_SIZE
  )
    return "bad header";
  return undefined;
}
