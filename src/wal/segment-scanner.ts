// Reads the frames of one segment file in bounded chunks, verifying every checksum.
//
// Memory follows the records actually in the file, never the record bound: the bound is the
// largest record the protocol allows (record-bound.ts, about 500 MiB), while most logs never hold
// a record above a few MiB. A frame larger than the read chunk gets a buffer of exactly its size,
// and only once the file is known to hold all of it; a length field claiming more than the file
// holds is a short (torn) record found without reading, whatever the bound.

import { type FileHandle, open } from "node:fs/promises";
import { crc32cUpdate } from "./crc32c.js";
import {
  checkFrame,
  FRAME_HEADER_SIZE,
  type FrameFault,
  type FrameType,
  frameSizeFault,
  isFrameType,
} from "./frame.js";

/** The read size; a test may pass a small one to drive every path with small frames. */
export const SCAN_CHUNK_BYTES = 1 << 20;
/** The header and the type byte: what the search after a bad frame needs to judge an offset. */
const FRAME_PREFIX = FRAME_HEADER_SIZE + 1;

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
  let buf: Uint8Array = new Uint8Array(chunkBytes);
  let bufStart = start; // file offset of buf[0]
  let available = 0;
  let at = 0;
  let eof = false;
  while (true) {
    const check = checkFrame(buf, at, available, maxPayloadBytes);
    if (check.ok) {
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
      const need =
        check.fault === "short record" ? FRAME_HEADER_SIZE + frameLength(buf, 0) : FRAME_HEADER_SIZE;
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
 * Whether any good frame starts after byte `from` of `path`: a bad record followed by a good one
 * is corruption, not a torn tail. Every offset is tried; lengths, type bytes and checksums must all
 * agree, so random bytes pass with a probability far below 2^-32 per offset. One chunk of memory
 * (and one more for checking a candidate larger than the chunk, streamed), whatever the bound.
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
    let base = from;
    while (base < fileSize) {
      const bytesRead = await readInto(handle, window, 0, Math.min(window.length, fileSize - base), base);
      if (bytesRead === 0) return undefined; // the file shrank under us: nothing more to find
      const atEnd = base + bytesRead >= fileSize;
      // Offsets whose header and type byte lie in the window are decided here (a frame running
      // past the window is checked from the file); the last few move to the next window.
      const limit = atEnd ? bytesRead : bytesRead - FRAME_PREFIX + 1;
      const view = new DataView(window.buffer, window.byteOffset, bytesRead);
      for (let p = 0; p < limit; p++) {
        // What every good frame has, checked first and without a CRC: a type byte of ours, a
        // length its type allows, an end within the file. Most offsets of other bytes stop here.
        if (p + FRAME_PREFIX <= bytesRead) {
          const type = window[p + FRAME_HEADER_SIZE]!;
          if (!isFrameType(type)) continue;
          const length = view.getUint32(p, false);
          if (length < 1 || length > maxPayloadBytes + 1 || frameSizeFault(type, length) !== undefined)
            continue;
          if (base + p + FRAME_HEADER_SIZE + length > fileSize) continue;
        }
        const check = checkFrame(window, p, bytesRead, maxPayloadBytes);
        if (check.ok) return base + p;
        if (
          check.fault === "short record" &&
          !atEnd &&
          (await isGoodLongFrame(handle, window, bytesRead, p, base, fileSize))
        ) {
          return base + p;
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
): Promise<boolean> {
  const length = frameLength(window, p);
  const type = window[p + FRAME_HEADER_SIZE]!;
  if (!isFrameType(type) || frameSizeFault(type, length) !== undefined) return false;
  const end = base + p + FRAME_HEADER_SIZE + length;
  if (end > fileSize) return false;
  const expected = new DataView(window.buffer, window.byteOffset).getUint32(p + 4, false);
  let crc = crc32cUpdate(0, window, p + FRAME_HEADER_SIZE, windowBytes);
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
