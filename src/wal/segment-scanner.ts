// Reads the frames of one segment file in bounded chunks, verifying every checksum.
//
// Memory follows the records actually in the file, never the record bound: the bound is the
// largest record the protocol allows (record-bound.ts, about 500 MiB), while most logs never hold
// a record above a few MiB. A frame larger than the read chunk gets a buffer of exactly its size,
// and only once the file is known to hold all of it; a length field claiming more than the file
// holds is a short (torn) record found without reading, whatever the bound.
//
// A segment's frames are checked under the scheme its header names (frame.ts): the header record at
// offset 0 is a plain frame; the frames after it are keyed in format 3, plain before.

import { type FileHandle, open } from "node:fs/promises";
import { crc32cUpdate } from "./crc32c.js";
import {
  bodyCheckSeed,
  checkFrame,
  FRAME_HEADER_SIZE,
  type FrameFault,
  type FrameScheme,
  FrameType,
  frameSizeFault,
  headerFrameBytes,
  isFrameType,
  isKeyedFrameType,
  isVouchedHead,
  keyedFrames,
  keysOfDamagedHeader,
  MAX_FRAME_HEAD_BYTES,
  PLAIN_FRAMES,
  schemeAfterHeader,
} from "./frame.js";

/** The read size; a test may pass a small one to drive every path with small frames. */
export const SCAN_CHUNK_BYTES = 1 << 20;
/** The longest frame head (a keyed one): what the search after a bad frame needs to judge an offset. */
const FRAME_PREFIX = MAX_FRAME_HEAD_BYTES;
/** Bytes read at a segment's start to learn its scheme: more than the longest header frame. */
const SEGMENT_START_BYTES = 64;

export type ScanItem =
  /** A good frame. `payload` is a view into the read buffer: valid until the next item. */
  | { kind: "frame"; type: FrameType; payload: Uint8Array; offset: number; end: number }
  /** Bytes at `offset` are not a frame; the scan stops here. */
  | { kind: "fault"; offset: number; fault: FrameFault };

/**
 * The frames of `path` from byte `start` to its end (or the first fault). Memory stays within one
 * chunk or, while a larger frame is read, that frame.
 */
export async function* scanSegment(
  path: string,
  start: number,
  maxPayloadBytes: number,
  chunkBytes: number = SCAN_CHUNK_BYTES,
): AsyncGenerator<ScanItem> {
  const handle = await open(path, "r");
  try {
    yield* scanHandle(handle, start, maxPayloadBytes, Math.max(chunkBytes, 2 * FRAME_PREFIX));
  } finally {
    await handle.close();
  }
}

async function* scanHandle(
  handle: FileHandle,
  start: number,
  maxPayloadBytes: number,
  chunkBytes: number,
): AsyncGenerator<ScanItem> {
  let scheme: FrameScheme = PLAIN_FRAMES;
  if (start > 0) {
    const known = await segmentScheme(handle);
    if (known.header === "damaged") {
      // Scanned good before (the caller resumes after a header it checked): the file changed.
      yield { kind: "fault", offset: 0, fault: "bad header" };
      return;
    }
    scheme = known.scheme;
  }
  let buf: Uint8Array = new Uint8Array(chunkBytes);
  let bufStart = start; // file offset of buf[0]
  let available = 0;
  let at = 0;
  let eof = false;
  while (true) {
    // The record at offset 0 is the segment's header (a plain frame) or, in format 1, a record.
    const atStart = bufStart + at === 0;
    const check = checkFrame(buf, at, available, maxPayloadBytes, atStart ? PLAIN_FRAMES : scheme);
    if (check.ok) {
      if (atStart && check.type === FrameType.Header) {
        scheme = schemeAfterHeader(buf.subarray(check.payloadStart, check.end));
      }
      yield {
        kind: "frame",
        type: check.type,
        payload: buf.subarray(check.payloadStart, check.end),
        offset: bufStart + at,
        end: bufStart + check.end,
      };
      at = check.end;
      continue;
    }
    if (check.needMore && !eof) {
      // Keep the unread tail at the start of the buffer.
      if (at > 0) {
        buf.copyWithin(0, at, available);
        bufStart += at;
        available -= at;
        at = 0;
      }
      // The bytes this frame needs: its header, or (header read) the whole frame.
      const headBytes = atStart ? PLAIN_FRAMES.headBytes : scheme.headBytes;
      const need = check.fault === "short record" ? headBytes - 1 + frameLength(buf, 0) : headBytes;
      if (need > buf.length) {
        // A frame the file cannot hold is torn: no buffer for bytes that are not there.
        if (bufStart + need > (await handle.stat()).size) {
          yield { kind: "fault", offset: bufStart, fault: "short record" };
          return;
        }
        buf = resized(buf, need, available);
      } else if (buf.length > chunkBytes && available <= chunkBytes && need <= chunkBytes) {
        // Back to one chunk once a large frame has been read.
        buf = resized(buf, chunkBytes, available);
      }
      const bytesRead = await readInto(handle, buf, available, buf.length - available, bufStart + available);
      if (bytesRead === 0) eof = true;
      available += bytesRead;
      continue;
    }
    if (check.needMore && at === available) return; // clean end of file
    yield { kind: "fault", offset: bufStart + at, fault: check.fault };
    return;
  }
}

/**
 * The scheme of the segment open in `handle`, from its header: "good" with the header's scheme,
 * "none" for a segment that starts with another record (format 1, read as plain frames), or
 * "damaged" when the bytes at its start look like a header but are not a good one.
 */
async function segmentScheme(
  handle: FileHandle,
): Promise<{ header: "good" | "none" | "damaged"; scheme: FrameScheme; start: Uint8Array }> {
  const buf = new Uint8Array(SEGMENT_START_BYTES);
  const start = buf.subarray(0, await readInto(handle, buf, 0, buf.length, 0));
  const check = checkFrame(start, 0, start.length, SEGMENT_START_BYTES);
  if (check.ok && check.type === FrameType.Header) {
    return {
      header: "good",
      scheme: schemeAfterHeader(start.subarray(check.payloadStart, check.end)),
      start,
    };
  }
  const looksLikeHeader =
    start[FRAME_HEADER_SIZE] === FrameType.Header || keysOfDamagedHeader(start) !== undefined;
  return { header: looksLikeHeader ? "damaged" : "none", scheme: PLAIN_FRAMES, start };
}

/**
 * The schemes a search of a segment tries: the segment's own; when its header is damaged, format
 * 3's under the keys where the header keeps them if what is left of it still says format 3; when
 * the format is unknown (a damaged header that no longer says which, or no header), plain frames
 * and keyed ones under the bytes where a header keeps its keys.
 */
async function searchSchemes(handle: FileHandle): Promise<{ schemes: FrameScheme[]; headerGood: boolean }> {
  const known = await segmentScheme(handle);
  if (known.header === "good") return { schemes: [known.scheme], headerGood: true };
  const keys = keysOfDamagedHeader(known.start);
  if (keys !== undefined) return { schemes: [keyedFrames(keys)], headerGood: false };
  const stale = keysOfDamagedKeyPosition(known.start);
  return { schemes: stale ? [PLAIN_FRAMES, keyedFrames(stale)] : [PLAIN_FRAMES], headerGood: false };
}

/** The bytes where a format-3 header keeps its keys, whatever the rest of the header says. */
function keysOfDamagedKeyPosition(start: Uint8Array): Uint8Array | undefined {
  const end = headerFrameBytes(keyedFrames(new Uint8Array(8)));
  return start.length >= end ? start.slice(end - 8, end) : undefined;
}

/**
 * Where a good frame starts after the bad frame at `faultOffset` of `path`, if any: a bad record
 * followed by a good one is corruption, not a torn tail. When the bad frame's head is one its
 * segment's keys vouch for (a keyed frame whose head check holds: its length is the writer's), no
 * record of ours starts inside its extent and the search starts after it: a torn record's own
 * bytes (a tx's among them) are never searched. Otherwise every offset after it is tried.
 */
export async function findFrameAfterFault(
  path: string,
  faultOffset: number,
  maxPayloadBytes: number,
  chunkBytes: number = SCAN_CHUNK_BYTES,
): Promise<number | undefined> {
  let from = faultOffset + 1;
  if (faultOffset > 0) {
    const handle = await open(path, "r");
    try {
      const { header, scheme } = await segmentScheme(handle);
      if (header === "good" && scheme.keys) {
        const head = new Uint8Array(scheme.headBytes);
        const n = await readInto(handle, head, 0, head.length, faultOffset);
        if (n === head.length && isVouchedHead(head, 0, scheme)) {
          from = faultOffset + scheme.headBytes - 1 + frameLength(head, 0);
        }
      }
    } finally {
      await handle.close();
    }
  }
  return findFrameAfter(path, from, maxPayloadBytes, chunkBytes);
}

/**
 * Whether any good frame starts at or after byte `from` of `path`. Every offset is tried under the
 * segment's scheme (offset 0 as its header); lengths, type bytes and checksums must all agree, so
 * random bytes pass with a probability far below 2^-32 per offset, and bytes chosen without the
 * segment's keys (format 3) pass with about 2^-64. A keyed frame's head is checked before its
 * payload, so an offset costs a checksum over 9 bytes, not over the length it claims. One chunk of
 * memory (and one more for checking a candidate larger than the chunk, streamed), whatever the bound.
 */
export async function findFrameAfter(
  path: string,
  from: number,
  maxPayloadBytes: number,
  chunkBytes: number = SCAN_CHUNK_BYTES,
): Promise<number | undefined> {
  const window = new Uint8Array(Math.max(chunkBytes, 2 * FRAME_PREFIX));
  const handle = await open(path, "r");
  try {
    const fileSize = (await handle.stat()).size;
    const { schemes, headerGood } = await searchSchemes(handle);
    if (from === 0 && headerGood) return 0;
    // Without a good header, offset 0 is judged as any other (a format-1 segment's first record).
    let base = headerGood ? Math.max(from, 1) : from;
    while (base < fileSize) {
      const bytesRead = await readInto(handle, window, 0, Math.min(window.length, fileSize - base), base);
      if (bytesRead === 0) return undefined; // the file shrank under us: nothing more to find
      const atEnd = base + bytesRead >= fileSize;
      // Offsets whose head lies in the window are decided here (a frame running past the window
      // is checked from the file); the last few move to the next window.
      const limit = atEnd ? bytesRead : bytesRead - FRAME_PREFIX + 1;
      const view = new DataView(window.buffer, window.byteOffset, bytesRead);
      for (let p = 0; p < limit; p++) {
        for (const scheme of schemes) {
          // What every good frame has, checked first and without a CRC over its payload: a type
          // byte of ours, a length its type allows, an end within the file, a keyed head's check.
          // Most offsets of other bytes stop here.
          if (p + scheme.headBytes <= bytesRead) {
            const type = window[p + FRAME_HEADER_SIZE]!;
            if (!isFrameType(type) || (scheme.keys && !isKeyedFrameType(type))) continue;
            const length = view.getUint32(p, false);
            if (length < 1 || length > maxPayloadBytes + 1 || frameSizeFault(type, length) !== undefined)
              continue;
            if (base + p + scheme.headBytes - 1 + length > fileSize) continue;
            if (scheme.keys && !isVouchedHead(window, p, scheme)) continue;
          }
          const check = checkFrame(window, p, bytesRead, maxPayloadBytes, scheme);
          if (check.ok) return base + p;
          if (
            check.fault === "short record" &&
            !atEnd &&
            (await isGoodLongFrame(handle, window, bytesRead, p, base, fileSize, scheme))
          ) {
            return base + p;
          }
        }
      }
      base += limit;
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Whether the frame at `window[p]` (the window holds `windowBytes` read from file offset `base`),
 * which runs past the window, is good: its type, its size within the file, and its checksum
 * streamed from the file.
 */
async function isGoodLongFrame(
  handle: FileHandle,
  window: Uint8Array,
  windowBytes: number,
  p: number,
  base: number,
  fileSize: number,
  scheme: FrameScheme,
): Promise<boolean> {
  const length = frameLength(window, p);
  const type = window[p + FRAME_HEADER_SIZE]!;
  if (!isFrameType(type) || frameSizeFault(type, length) !== undefined) return false;
  if (scheme.keys && (!isKeyedFrameType(type) || !isVouchedHead(window, p, scheme))) return false;
  const end = base + p + scheme.headBytes - 1 + length;
  if (end > fileSize) return false;
  const expected = new DataView(window.buffer, window.byteOffset).getUint32(p + 4, false);
  let crc = crc32cUpdate(bodyCheckSeed(type, scheme), window, p + scheme.headBytes, windowBytes);
  const scratch = new Uint8Array(window.length);
  for (let at = base + windowBytes; at < end; ) {
    const n = await readInto(handle, scratch, 0, Math.min(scratch.length, end - at), at);
    if (n === 0) return false;
    crc = crc32cUpdate(crc, scratch, 0, n);
    at += n;
  }
  return crc === expected;
}

function frameLength(buf: Uint8Array, at: number): number {
  return new DataView(buf.buffer, buf.byteOffset).getUint32(at, false);
}

function resized(buf: Uint8Array, size: number, keep: number): Uint8Array {
  const next = new Uint8Array(size);
  next.set(buf.subarray(0, keep));
  return next;
}

/** Reads up to `length` bytes at `position`, fewer only at the end of the file. */
async function readInto(
  handle: FileHandle,
  buf: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  let total = 0;
  while (total < length) {
    const { bytesRead } = await handle.read(buf, offset + total, length - total, position + total);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return total;
}
