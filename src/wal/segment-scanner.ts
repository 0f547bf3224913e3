// Reads the frames of one segment file in bounded chunks, verifying every checksum.

import { type FileHandle, open } from "node:fs/promises";
import { checkFrame, FRAME_HEADER_SIZE, type FrameFault, type FrameType } from "./frame.js";

const CHUNK_SIZE = 1 << 20;

export type ScanItem =
  /** A good frame. `payload` is a view into the read buffer: valid until the next item. */
  | { kind: "frame"; type: FrameType; payload: Uint8Array; offset: number; end: number }
  /** Bytes at `offset` are not a frame; the scan stops here. */
  | { kind: "fault"; offset: number; fault: FrameFault };

/**
 * The frames of `path` from byte `start` to its end (or the first fault). Memory stays within
 * one chunk plus the largest allowed frame.
 */
export async function* scanSegment(
  path: string,
  start: number,
  maxPayloadBytes: number,
): AsyncGenerator<ScanItem> {
  const handle = await open(path, "r");
  try {
    yield* scanHandle(handle, start, maxPayloadBytes);
  } finally {
    await handle.close();
  }
}

async function* scanHandle(
  handle: FileHandle,
  start: number,
  maxPayloadBytes: number,
): AsyncGenerator<ScanItem> {
  // One chunk, grown (up to the largest frame) only when a frame does not fit it once compacted:
  // the bound holds a whole block, and most logs never have a record that large.
  const maxFrame = FRAME_HEADER_SIZE + 1 + maxPayloadBytes;
  let buf = new Uint8Array(CHUNK_SIZE);
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
      // Keep the unread tail, then fill the rest of the buffer from the file.
      if (at > 0) {
        buf.copyWithin(0, at, available);
        bufStart += at;
        available -= at;
        at = 0;
      }
      if (available === buf.length && buf.length < maxFrame) {
        const grown = new Uint8Array(Math.min(2 * buf.length, maxFrame));
        grown.set(buf.subarray(0, available));
        buf = grown;
      }
      const { bytesRead } = await handle.read(buf, available, buf.length - available, bufStart + available);
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
 * agree, so random bytes pass with a probability far below 2^-32 per offset.
 */
export async function findFrameAfter(
  path: string,
  from: number,
  maxPayloadBytes: number,
): Promise<number | undefined> {
  const maxFrame = FRAME_HEADER_SIZE + 1 + maxPayloadBytes;
  const window = new Uint8Array(Math.max(2 * maxFrame, CHUNK_SIZE));
  const handle = await open(path, "r");
  try {
    let base = from;
    while (true) {
      const { bytesRead } = await handle.read(window, 0, window.length, base);
      if (bytesRead === 0) return undefined;
      const atEof = bytesRead < window.length;
      // Offsets whose largest possible frame lies inside the window are decided here; the rest
      // move to the next window.
      const limit = atEof ? bytesRead : bytesRead - maxFrame;
      for (let p = 0; p < limit; p++) {
        const check = checkFrame(window, p, bytesRead, maxPayloadBytes);
        if (check.ok) return base + p;
      }
      if (atEof) return undefined;
      base += limit;
    }
  } finally {
    await handle.close();
  }
}
