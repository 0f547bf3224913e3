// Streams the entries of a log: decoded inputs and end-of-height markers, in order, with memory
// bounded by one read chunk plus one record.

import { WalError } from "./errors.js";
import { decodeEndHeightPayload, type FrameFault, FrameType } from "./frame.js";
import type { SegmentExtent } from "./log-scan.js";
import { decodeRecord } from "./record-codec.js";
import { listSegments } from "./segment-files.js";
import { findFrameAfter, type ScanItem, scanSegment } from "./segment-scanner.js";

export type WalEntry = { kind: "input"; input: unknown } | { kind: "end-height"; height: bigint };

export const DEFAULT_MAX_RECORD_BYTES = 4 * 1024 * 1024;

/**
 * The entries of already-scanned segments from `(segment, offset)` on, up to each segment's
 * scanned size. A fault below that size means the files changed after the scan: WAL_CORRUPT.
 */
export async function* readScannedEntries(
  segments: readonly SegmentExtent[],
  fromSegment: number,
  fromOffset: number,
  maxPayloadBytes: number,
): AsyncGenerator<WalEntry> {
  for (const segment of segments) {
    if (segment.index < fromSegment) continue;
    const start = segment.index === fromSegment ? fromOffset : 0;
    if (start >= segment.size) continue;
    for await (const item of scanSegment(segment.path, start, maxPayloadBytes)) {
      if (item.kind === "fault") {
        if (item.offset >= segment.size) break;
        throw corrupt(segment.path, item.offset, item.fault, "changed since it was opened");
      }
      if (item.offset >= segment.size) break;
      yield entryOf(item, segment.path);
    }
  }
}

/** Everything `readWal` reports about the end of the log besides its entries. */
export interface ReadWalOptions {
  maxRecordBytes?: number;
  /** Called when the log ends in a torn record (read-only: nothing is changed on disk). */
  onTornTail?: (where: { file: string; offset: number; fault: FrameFault }) => void;
}

/**
 * Reads a whole log directory without changing it, in one pass (for `rxbft replay` and tools).
 * A torn last record ends the stream (reported through `onTornTail`); a bad record followed by
 * a good one throws WAL_CORRUPT naming file and offset.
 */
export async function* readWal(dir: string, options: ReadWalOptions = {}): AsyncGenerator<WalEntry> {
  const maxPayloadBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const files = await listSegments(dir);
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    for await (const item of scanSegment(file.path, 0, maxPayloadBytes)) {
      if (item.kind === "frame") {
        yield entryOf(item, file.path);
        continue;
      }
      const candidates = [
        { path: file.path, from: item.offset + 1 },
        ...files.slice(i + 1).map((f) => ({ path: f.path, from: 0 })),
      ];
      for (const c of candidates) {
        const good = await findFrameAfter(c.path, c.from, maxPayloadBytes);
        if (good !== undefined) {
          throw corrupt(
            file.path,
            item.offset,
            item.fault,
            `a good record follows at ${c.path} offset ${good}`,
          );
        }
      }
      options.onTornTail?.({ file: file.path, offset: item.offset, fault: item.fault });
      return;
    }
  }
}

function entryOf(item: Extract<ScanItem, { kind: "frame" }>, path: string): WalEntry {
  if (item.type === FrameType.EndHeight) {
    return { kind: "end-height", height: decodeEndHeightPayload(item.payload)! };
  }
  try {
    return { kind: "input", input: decodeRecord(item.payload) };
  } catch (error) {
    if (!(error instanceof WalError)) throw error;
    throw new WalError(
      "WAL_UNDECODABLE",
      `consensus log record at ${path} offset ${item.offset} has a good checksum but cannot be decoded ` +
        `(written by another version?): ${error.message}`,
      { file: path, offset: item.offset, cause: error },
    );
  }
}

function corrupt(file: string, offset: number, fault: FrameFault, why: string): WalError {
  return new WalError("WAL_CORRUPT", `consensus log is corrupt: ${file} offset ${offset}: ${fault}; ${why}`, {
    file,
    offset,
  });
}
