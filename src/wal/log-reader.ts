// Streams the entries of a log: decoded inputs and end-of-height markers, in order, with memory
// bounded by one read chunk or the largest record read.

import { WalError } from "./errors.js";
import { decodeEndHeightPayload, type FrameFault, FrameType } from "./frame.js";
import { checkSegmentHeader } from "./log-format.js";
import type { SegmentExtent } from "./log-scan.js";
import { DEFAULT_MAX_RECORD_BYTES } from "./record-bound.js";
import { decodeRecord } from "./record-codec.js";
import { listSegments } from "./segment-files.js";
import { findFrameAfter, findFrameAfterFault, type ScanItem, scanSegment } from "./segment-scanner.js";

export type WalEntry<T = unknown> = { kind: "input"; input: T } | { kind: "end-height"; height: bigint };

// The bound comes from the protocol's largest block (record-bound.ts); readers and the writer use
// the same one.
export { DEFAULT_MAX_RECORD_BYTES } from "./record-bound.js";

/**
 * The reader's declared record schema: the reason a decoded record is refused, or undefined when
 * its shape is one the schema declares (src/consensus/log-record-schema.ts for the consensus log).
 */
export type RecordCheck<T = unknown> = ((record: unknown) => string | undefined) & {
  /** The type a record the check accepts has (type-level only: readWal yields it as that). */
  readonly accepts?: T;
};

/**
 * The entries of already-scanned segments from `(segment, offset)` on, up to each segment's
 * scanned size. A fault below that size means the files changed after the scan: WAL_CORRUPT.
 */
export async function* readScannedEntries<T = unknown>(
  segments: readonly SegmentExtent[],
  fromSegment: number,
  fromOffset: number,
  maxPayloadBytes: number,
  checkRecord?: RecordCheck<T>,
): AsyncGenerator<WalEntry<T>> {
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
      const entry = entryOf(item, segment.path, checkRecord);
      if (entry) yield entry;
    }
  }
}

/** Everything `readWal` reports about the end of the log besides its entries. */
export interface ReadWalOptions<T = unknown> {
  maxRecordBytes?: number;
  /** The declared record schema; without it records are returned as decoded (tools, tests). */
  checkRecord?: RecordCheck<T>;
  /** Called when the log ends in a torn record (read-only: nothing is changed on disk). */
  onTornTail?: (where: { file: string; offset: number; fault: FrameFault }) => void;
}

/**
 * Reads a whole log directory without changing it, in one pass (for `rxbft replay` and tools).
 * A torn last record ends the stream (reported through `onTornTail`); a bad record followed by
 * a good one throws WAL_CORRUPT naming file and offset.
 */
export async function* readWal<T = unknown>(
  dir: string,
  options: ReadWalOptions<T> = {},
): AsyncGenerator<WalEntry<T>> {
  const maxPayloadBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const files = await listSegments(dir);
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    for await (const item of scanSegment(file.path, 0, maxPayloadBytes)) {
      if (item.kind === "frame") {
        const entry = entryOf(item, file.path, options.checkRecord);
        if (entry) yield entry;
        continue;
      }
      const candidates = [
        { path: file.path, fault: item.offset },
        ...files.slice(i + 1).map((f) => ({ path: f.path, fault: undefined })),
      ];
      for (const c of candidates) {
        const good =
          c.fault === undefined
            ? await findFrameAfter(c.path, 0, maxPayloadBytes)
            : await findFrameAfterFault(c.path, c.fault, maxPayloadBytes);
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

/** The entry of a frame; a segment header is checked and yields nothing. */
function entryOf<T>(
  item: Extract<ScanItem, { kind: "frame" }>,
  path: string,
  checkRecord: RecordCheck<T> | undefined,
): WalEntry<T> | undefined {
  if (item.type === FrameType.EndHeight) {
    return { kind: "end-height", height: decodeEndHeightPayload(item.payload)! };
  }
  if (item.type === FrameType.Header) {
    checkSegmentHeader(item.payload, path, item.offset);
    return undefined;
  }
  // The signer's record is no consensus input: the scan at open keeps the latest (log-scan.ts).
  if (item.type === FrameType.Signed) return undefined;
  let input: unknown;
  try {
    input = decodeRecord(item.payload);
  } catch (error) {
    if (!(error instanceof WalError)) throw error;
    throw new WalError(
      "WAL_UNDECODABLE",
      `consensus log record at ${path} offset ${item.offset} has a good checksum but cannot be decoded ` +
        `(written by another version?): ${error.message}`,
      { file: path, offset: item.offset, cause: error },
    );
  }
  const problem = checkRecord?.(input);
  if (problem !== undefined) {
    throw new WalError(
      "WAL_BAD_RECORD",
      `consensus log record at ${path} offset ${item.offset} is refused: ${problem} ` +
        "(not a record this version declares; written by another version, or damaged before its checksum)",
      { file: path, offset: item.offset },
    );
  }
  // Checked against the declared schema above (or, without one, the caller asked for unknown).
  return { kind: "input", input: input as T };
}

function corrupt(file: string, offset: number, fault: FrameFault, why: string): WalError {
  return new WalError("WAL_CORRUPT", `consensus log is corrupt: ${file} offset ${offset}: ${fault}; ${why}`, {
    file,
    offset,
  });
}
