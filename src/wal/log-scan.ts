// The scan at open: checks every record of every segment, indexes the end-of-height markers, and
// tells a torn tail (cut, with a report) from corruption (a typed error naming file and offset).

import { open, stat, unlink } from "node:fs/promises";
import { WalError } from "./errors.js";
import {
  decodeEndHeightPayload,
  type FrameFault,
  type FrameScheme,
  FrameType,
  PLAIN_FRAMES,
  schemeAfterHeader,
} from "./frame.js";
import { checkSegmentHeader } from "./log-format.js";
import { listSegments, type SegmentFile, syncDirectory } from "./segment-files.js";
import { findFrameAfter, findFrameAfterFault, scanSegment } from "./segment-scanner.js";

/** Where an end-of-height marker ends: the next height's inputs start at `end` of `segment`. */
export interface MarkerPosition {
  height: bigint;
  segment: number;
  end: number;
}

export interface SegmentExtent extends SegmentFile {
  /** Bytes of good records (after any repair, the file size). */
  size: number;
  /** How its frames are checked (its header's; plain for formats 1 and 2 and for an empty segment). */
  scheme: FrameScheme;
}

/** What the open did to a torn tail; the caller logs it as a warning. */
export interface RepairReport {
  file: string;
  offset: number;
  fault: FrameFault;
  /** Bytes removed from `file` (0 in read-only mode, which changes nothing). */
  droppedBytes: number;
  /** Later segment files that held no good record and were removed. */
  removedFiles: string[];
  message: string;
}

/** The latest signer's record (FrameType.Signed) of the kept segments, and where it is. */
export interface SignedRecord {
  payload: Uint8Array;
  segment: number;
}

export interface LogScan {
  segments: SegmentExtent[];
  markers: MarkerPosition[];
  signed: SignedRecord | undefined;
  records: number;
  repair: RepairReport | undefined;
}

export type ScanMode = "repair" | "read-only";

export async function scanLog(dir: string, maxPayloadBytes: number, mode: ScanMode): Promise<LogScan> {
  const files = await listSegments(dir);
  const segments: SegmentExtent[] = [];
  const markers: MarkerPosition[] = [];
  let signed: SignedRecord | undefined;
  let records = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    let size = 0;
    let scheme = PLAIN_FRAMES;
    for await (const item of scanSegment(file.path, 0, maxPayloadBytes)) {
      if (item.kind === "frame") {
        records++;
        size = item.end;
        if (item.type === FrameType.Header) {
          checkSegmentHeader(item.payload, file.path, item.offset);
          if (item.offset === 0) scheme = schemeAfterHeader(item.payload);
        }
        if (item.type === FrameType.EndHeight) {
          markers.push({ height: decodeEndHeightPayload(item.payload)!, segment: file.index, end: item.end });
        }
        if (item.type === FrameType.Signed) signed = { payload: item.payload.slice(), segment: file.index };
        continue;
      }
      await refuseIfGoodRecordsFollow(files, i, item.offset, item.fault, maxPayloadBytes);
      const repair = await cutTornTail(dir, files, i, item.offset, item.fault, mode);
      segments.push({ ...file, size: item.offset, scheme: item.offset === 0 ? PLAIN_FRAMES : scheme });
      return { segments, markers, signed, records, repair };
    }
    segments.push({ ...file, size, scheme });
  }
  return { segments, markers, signed, records, repair: undefined };
}

async function refuseIfGoodRecordsFollow(
  files: SegmentFile[],
  i: number,
  offset: number,
  fault: FrameFault,
  maxPayloadBytes: number,
): Promise<void> {
  let found: { path: string; offset: number } | undefined;
  const here = await findFrameAfterFault(files[i]!.path, offset, maxPayloadBytes);
  if (here !== undefined) found = { path: files[i]!.path, offset: here };
  for (let j = i + 1; found === undefined && j < files.length; j++) {
    const later = await findFrameAfter(files[j]!.path, 0, maxPayloadBytes);
    if (later !== undefined) found = { path: files[j]!.path, offset: later };
  }
  if (found === undefined) return;
  const file = files[i]!.path;
  throw new WalError(
    "WAL_CORRUPT",
    `consensus log is corrupt: ${file} offset ${offset}: ${fault}, and a good record follows at ` +
      `${found.path} offset ${found.offset}; the node cannot resume from this log. Restore the ` +
      `data directory from a backup or remove the log (a validator then relies on its signer state).`,
    { file, offset },
  );
}

async function cutTornTail(
  dir: string,
  files: SegmentFile[],
  i: number,
  offset: number,
  fault: FrameFault,
  mode: ScanMode,
): Promise<RepairReport> {
  const file = files[i]!.path;
  const later = files.slice(i + 1).map((f) => f.path);
  const fileSize = (await stat(file)).size;
  if (mode === "read-only") {
    return {
      file,
      offset,
      fault,
      droppedBytes: 0,
      removedFiles: [],
      message: `torn record at the end of the consensus log: ${file} offset ${offset} (${fault}); read up to it`,
    };
  }
  const handle = await open(file, "r+");
  try {
    await handle.truncate(offset);
    await handle.sync();
  } finally {
    await handle.close();
  }
  for (const path of later) await unlink(path);
  if (later.length > 0) await syncDirectory(dir);
  const removed = later.length > 0 ? ` and removed ${later.join(", ")}` : "";
  return {
    file,
    offset,
    fault,
    droppedBytes: fileSize - offset,
    removedFiles: later,
    message:
      `torn record at the end of the consensus log: ${file} offset ${offset} (${fault}); ` +
      `cut ${fileSize - offset} bytes${removed}`,
  };
}
