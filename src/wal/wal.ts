// The consensus log: appends inputs, syncs them in groups, marks the end of each height, rotates
// segments by size and reads back the inputs of the unfinished height after a restart.

import { randomBytes } from "node:crypto";
import { writeSync, writevSync } from "node:fs";
import { type FileHandle, mkdir, open, unlink } from "node:fs/promises";
import type { SchedulerAction, SchedulerLike, Subscription } from "rxjs";
import { WalError } from "./errors.js";
import {
  encodeEndHeightPayload,
  encodeFrame,
  encodeFrameHead,
  encodeFrameHeadOfPieces,
  encodeKeyedHeaderPayload,
  FrameType,
  headerFrameBytes,
  keyedFrames,
  MAX_FRAME_HEAD_BYTES,
  MAX_FRAME_PAYLOAD_BYTES,
  PLAIN_FRAMES,
  SEGMENT_KEY_BYTES,
} from "./frame.js";
import {
  DEFAULT_MAX_RECORD_BYTES,
  type RecordCheck,
  readScannedEntries,
  type WalEntry,
} from "./log-reader.js";
import {
  type MarkerPosition,
  type RepairReport,
  type SegmentExtent,
  type SignedRecord,
  scanLog,
} from "./log-scan.js";
import { encodeRecordInPieces, type RecordPieces } from "./record-codec.js";
import { segmentPath, syncDirectory } from "./segment-files.js";

export interface WalOptions<T = unknown> {
  /**
   * Largest encoded input in bytes (default DEFAULT_MAX_RECORD_BYTES, from the protocol's largest
   * block: record-bound.ts). Bigger appends throw WAL_RECORD_TOO_LARGE.
   */
  maxRecordBytes?: number;
  /**
   * A segment is closed and a new one started before it would grow past this (default 64 MiB). A
   * record larger than a segment is written alone in a segment of its own, which is then larger.
   */
  maxSegmentBytes?: number;
  /**
   * Segments kept (default 16, so about 1 GiB as CometBFT's group limit). The oldest are removed
   * on rotation, but never the one holding the latest end-of-height marker or any after it.
   */
  maxSegments?: number;
  /**
   * The declared record schema the inputs read back (readAfterLastEndHeight, readAll) are checked
   * against; a refused record throws WAL_BAD_RECORD naming file, offset and reason.
   */
  checkRecord?: RecordCheck<T>;
  /**
   * The keys of each new segment (SEGMENT_KEY_BYTES bytes; default random from node:crypto). They
   * stay in the segment's header and nowhere else: a test passes fixed ones to compare bytes.
   */
  segmentKeys?: () => Uint8Array;
}

interface PendingFrame {
  type: FrameType;
  /** The payload, or an input's record in pieces (one with its txs' chunks made ahead: record-ahead.ts). */
  payload: Uint8Array | RecordPieces;
  /** The frame's size once keyed. */
  length: number;
  endHeight: bigint | undefined;
  /** The signer's record (FrameType.Signed): its segment is kept while it is the latest. */
  signed?: true;
}

interface GroupFrame {
  /** The frame, or its head and its payload when the payload is large (written without a copy). */
  parts: readonly Uint8Array[];
  length: number;
  endHeight: bigint | undefined;
  signed?: true;
}

/** Records from this size on are written from where the codec left them, not copied into a frame. */
const UNCOPIED_RECORD_BYTES = 64 * 1024;
/** A group of frames up to this size is copied into one buffer for one write(); larger, writev(). */
const CONCAT_GROUP_BYTES = 1 << 20;
/** A group from this size on is written by the thread pool (writeAllInPool), not on the main thread. */
export const THREAD_POOL_WRITE_BYTES = 1 << 20;
/** Buffers per writev() (Linux's IOV_MAX). */
const MAX_IOVECS = 1024;

const MAX_END_HEIGHT = (1n << 63n) - 1n;
const MIN_SEGMENT_BYTES = 1024;

/** A keyed frame's bytes besides its payload (length, body check, type, head check). */
const KEYED_FRAME_OVERHEAD = MAX_FRAME_HEAD_BYTES;

/** The size of a format-3 segment's header frame, whatever its keys. */
const SEGMENT_HEADER_FRAME_BYTES = headerFrameBytes(keyedFrames(new Uint8Array(SEGMENT_KEY_BYTES)));

function randomSegmentKeys(): Uint8Array {
  return randomBytes(SEGMENT_KEY_BYTES);
}

/**
 * How often buffered records are written to the file (not synced) while the node runs: a kill -9
 * keeps them; a power cut may not (the durable points are the syncs before signing and at each
 * end-of-height marker).
 */
export const LOG_FLUSH_EVERY_MS = 100;

export class Wal<T = unknown> {
  /** The torn tail cut at open, if any: the caller logs `repair.message` as a warning. */
  readonly repair: RepairReport | undefined;

  private pending: PendingFrame[] = [];
  private tail: Promise<void> = Promise.resolve();
  private queuedFlush: Promise<void> | undefined;
  private queuedSync: Promise<void> | undefined;
  private failure: WalError | undefined;
  private closed = false;
  private latestEndHeight: bigint | undefined;
  /** The segment of the latest signer's record written (or found at open): never removed. */
  private latestSignedSegment: number | undefined;
  private flushing: Subscription | undefined;
  /** Told the duration of each write-and-fdatasync, in seconds (the node's metrics). */
  onSynced: ((seconds: number) => void) | undefined;

  private constructor(
    readonly dir: string,
    private readonly maxRecordBytes: number,
    private readonly maxSegmentBytes: number,
    private readonly maxSegments: number,
    private readonly segments: SegmentExtent[],
    private readonly markers: MarkerPosition[],
    private handle: FileHandle,
    repair: RepairReport | undefined,
    private readonly checkRecord: RecordCheck<T> | undefined,
    private readonly segmentKeys: () => Uint8Array,
    /** The latest signer's record of the kept segments at open (src/privval reconciles with it). */
    readonly signedAtOpen: SignedRecord | undefined,
  ) {
    this.repair = repair;
    this.latestEndHeight = markers.at(-1)?.height;
    this.latestSignedSegment = signedAtOpen?.segment;
  }

  /**
   * Opens (creating if needed) the log in `dir`: checks every record, cuts a torn tail (see
   * `repair`) and throws WAL_CORRUPT, naming file and offset, when a bad record has good ones after it.
   */
  static async open<T = unknown>(dir: string, options: WalOptions<T> = {}): Promise<Wal<T>> {
    const maxRecordBytes = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    const maxSegmentBytes = options.maxSegmentBytes ?? 64 * 1024 * 1024;
    const maxSegments = options.maxSegments ?? 16;
    if (
      !Number.isSafeInteger(maxRecordBytes) ||
      maxRecordBytes < 16 ||
      maxRecordBytes > MAX_FRAME_PAYLOAD_BYTES
    ) {
      throw new WalError(
        "WAL_BAD_OPTIONS",
        `maxRecordBytes must be 16..${MAX_FRAME_PAYLOAD_BYTES} (what a frame's length can say), got ${maxRecordBytes}`,
      );
    }
    // Not tied to the record bound: a record larger than a segment gets a segment of its own.
    if (!Number.isSafeInteger(maxSegmentBytes) || maxSegmentBytes < MIN_SEGMENT_BYTES) {
      throw new WalError(
        "WAL_BAD_OPTIONS",
        `maxSegmentBytes must be at least ${MIN_SEGMENT_BYTES}, got ${maxSegmentBytes}`,
      );
    }
    if (!Number.isSafeInteger(maxSegments) || maxSegments < 1) {
      throw new WalError("WAL_BAD_OPTIONS", `maxSegments must be at least 1, got ${maxSegments}`);
    }
    await mkdir(dir, { recursive: true });
    const scan = await scanLog(dir, maxRecordBytes, "repair");
    const segments = scan.segments;
    const created = segments.length === 0;
    if (created) segments.push({ index: 0, path: segmentPath(dir, 0), size: 0, scheme: PLAIN_FRAMES });
    const handle = await open(segments.at(-1)!.path, "a", 0o600);
    if (created) await syncDirectory(dir);
    return new Wal<T>(
      dir,
      maxRecordBytes,
      maxSegmentBytes,
      maxSegments,
      segments,
      scan.markers,
      handle,
      scan.repair,
      options.checkRecord,
      options.segmentKeys ?? randomSegmentKeys,
      scan.signed,
    );
  }

  /** The height of the latest end-of-height marker appended (or found at open). */
  get lastEndHeight(): bigint | undefined {
    return this.latestEndHeight;
  }

  /** Buffers an input; nothing reaches the disk until flush(), sync() or endHeight(). */
  appendInput(input: unknown): void {
    this.assertUsable();
    const encoded = encodeRecordInPieces(input);
    const record = encoded.pieces.length === 1 ? encoded.pieces[0]! : encoded;
    if (record.length > this.maxRecordBytes) {
      const file = this.segments.at(-1)!.path;
      throw new WalError(
        "WAL_RECORD_TOO_LARGE",
        `consensus log record ${recordKind(input)} of ${record.length} bytes exceeds the bound of ` +
          `${this.maxRecordBytes} bytes; not appended to ${file}`,
        { file },
      );
    }
    // Framed when written: its keys are those of the segment it lands in, known after rotation.
    this.pending.push({
      type: FrameType.Input,
      payload: record,
      length: KEYED_FRAME_OVERHEAD + record.length,
      endHeight: undefined,
    });
  }

  /**
   * The log's flush policy: writes buffered records every `everyMs` on `scheduler` (the node's
   * injected scheduler, so a test on virtual time sees the same policy) until close(). A failed
   * flush is retried at the next tick; the failure itself surfaces on the next sync.
   */
  flushEvery(scheduler: SchedulerLike, everyMs = LOG_FLUSH_EVERY_MS): void {
    // A halt during the start may have closed the log already: then there is nothing to flush.
    if (this.closed) return;
    this.flushing?.unsubscribe();
    const wal = this;
    this.flushing = scheduler.schedule(function (this: SchedulerAction<undefined>) {
      if (wal.closed) return;
      wal.flush().catch(() => {});
      this.schedule(undefined, everyMs);
    }, everyMs);
  }

  /** Writes buffered records to the file (the OS may still lose them on a power cut). */
  flush(): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.queuedSync) return this.queuedSync;
    if (this.queuedFlush) return this.queuedFlush;
    const p = this.enqueue(async () => {
      this.queuedFlush = undefined;
      await this.writePending();
    });
    this.queuedFlush = p;
    return p;
  }

  /**
   * Writes buffered records and fdatasyncs. Calls made while a sync is waiting to start share it:
   * many appends, one fsync (group commit).
   */
  sync(): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    return this.syncPending();
  }

  private syncPending(): Promise<void> {
    if (this.queuedSync) return this.queuedSync;
    const p = this.enqueue(async () => {
      if (this.queuedSync === p) this.queuedSync = undefined;
      this.queuedFlush = undefined;
      const started = performance.now();
      await this.writePending();
      await this.handle.datasync();
      this.onSynced?.((performance.now() - started) / 1000);
    });
    this.queuedSync = p;
    return p;
  }

  /**
   * A sync whose fdatasync `datasync` runs (src/privval/log-sync.ts: the signer's state-file
   * thread, right before its rename). It runs in the writer queue like any sync: the buffered
   * records are written first, and no rotation or close can take the descriptor while `datasync`
   * holds it. Its failure latches the log as a failed fdatasync does. Syncs asked before it starts
   * share it.
   */
  syncVia(datasync: (fd: number) => Promise<void>): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    const p = this.enqueue(async () => {
      if (this.queuedSync === p) this.queuedSync = undefined;
      this.queuedFlush = undefined;
      const started = performance.now();
      await this.writePending();
      await datasync(this.handle.fd);
      this.onSynced?.((performance.now() - started) / 1000);
    });
    this.queuedSync = p;
    return p;
  }

  /**
   * `syncVia` with the signer's record (src/privval/log-sync.ts) appended after the buffered
   * records first: once it resolves, the log holds what the signer signed last, durably, and the
   * signature may leave. The record is the signer's bytes; `signedAtOpen` gives the latest back
   * after a restart, and the segment holding it is never removed while it is the latest.
   */
  syncRecording(record: Uint8Array, datasync: (fd: number) => Promise<void>): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    if (this.failure) return Promise.reject(this.failure);
    if (record.length > this.maxRecordBytes) {
      return Promise.reject(
        new WalError(
          "WAL_RECORD_TOO_LARGE",
          `consensus log signer record of ${record.length} bytes exceeds the bound of ${this.maxRecordBytes} bytes`,
        ),
      );
    }
    this.pending.push({
      type: FrameType.Signed,
      payload: record,
      length: KEYED_FRAME_OVERHEAD + record.length,
      endHeight: undefined,
      signed: true,
    });
    return this.syncVia(datasync);
  }

  /** Called before our own vote or proposal leaves: what we say to others is on disk first. */
  syncBeforeSigning(): Promise<void> {
    return this.sync();
  }

  /** Appends the end-of-height marker for `height` and syncs. Heights must increase. */
  endHeight(height: bigint): Promise<void> {
    this.appendEndHeight(height);
    return this.sync();
  }

  /**
   * Buffers the end-of-height marker for `height` without a sync of its own: the node's commit,
   * whose marker the next sync (the one before its next signature at the latest) carries
   * (docs/storage.md, "The node's pipeline"). Heights must increase.
   */
  appendEndHeight(height: bigint): void {
    this.assertUsable();
    if (height < 0n || height > MAX_END_HEIGHT) {
      throw new WalError("WAL_HEIGHT_NOT_INCREASING", `end-of-height marker ${height} is outside 0..2^63-1`);
    }
    if (this.latestEndHeight !== undefined && height <= this.latestEndHeight) {
      throw new WalError(
        "WAL_HEIGHT_NOT_INCREASING",
        `end-of-height marker ${height} is not above the previous marker ${this.latestEndHeight}`,
      );
    }
    this.latestEndHeight = height;
    const payload = encodeEndHeightPayload(height);
    this.pending.push({
      type: FrameType.EndHeight,
      payload,
      length: KEYED_FRAME_OVERHEAD + payload.length,
      endHeight: height,
    });
  }

  /** The inputs after the latest end-of-height marker (all inputs when there is none), in order. */
  async readAfterLastEndHeight(): Promise<T[]> {
    await this.flush();
    const marker = this.markers.at(-1);
    const from = marker ?? { segment: this.segments[0]!.index, end: 0 };
    return this.collectInputs(from.segment, from.end);
  }

  /**
   * The inputs between the marker of `height` and the next marker (or the end), or undefined
   * when no marker of that height is in the kept segments.
   */
  async readAfterEndHeight(height: bigint): Promise<unknown[] | undefined> {
    await this.flush();
    const marker = this.markers.find((m) => m.height === height);
    if (!marker) return undefined;
    return this.collectInputs(marker.segment, marker.end);
  }

  /** Every entry of the kept segments, streamed (for `rxbft replay` on an open log). */
  async *readAll(): AsyncGenerator<WalEntry<T>> {
    await this.flush();
    const snapshot = this.segments.map((s) => ({ ...s }));
    yield* readScannedEntries(snapshot, snapshot[0]!.index, 0, this.maxRecordBytes, this.checkRecord);
  }

  /** Syncs what is buffered and closes the file. Later calls throw WAL_CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    // Refuse appends from here on: one accepted now could miss the last sync and vanish.
    this.closed = true;
    this.flushing?.unsubscribe();
    try {
      if (!this.failure) await this.syncPending();
    } finally {
      await this.tail;
      await this.handle.close();
    }
  }

  private async collectInputs(segment: number, offset: number): Promise<T[]> {
    const snapshot = this.segments.map((s) => ({ ...s }));
    const inputs: T[] = [];
    for await (const entry of readScannedEntries(
      snapshot,
      segment,
      offset,
      this.maxRecordBytes,
      this.checkRecord,
    )) {
      if (entry.kind === "end-height") break;
      inputs.push(entry.input);
    }
    return inputs;
  }

  private assertUsable(): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw this.closedError();
  }

  private closedError(): WalError {
    return new WalError("WAL_CLOSED", `consensus log ${this.dir} is closed`);
  }

  /** Runs `op` after every earlier one; the first I/O failure is sticky (the disk state is unknown). */
  private enqueue(op: () => Promise<void>): Promise<void> {
    const run = this.tail.then(async () => {
      if (this.failure) throw this.failure;
      try {
        await op();
      } catch (error) {
        this.failure = new WalError(
          "WAL_IO",
          `consensus log ${this.dir}: write failed, no further writes: ${(error as Error).message}`,
          { cause: error },
        );
        throw this.failure;
      }
    });
    this.tail = run.catch(() => {});
    return run;
  }

  private async writePending(): Promise<void> {
    const frames = this.pending;
    this.pending = [];
    if (frames.length === 0) return;
    // A segment of an older format (plain frames) is not appended to: new records go to a new
    // segment of the current format, so every frame written since is keyed.
    if (this.segments.at(-1)!.size > 0 && !this.segments.at(-1)!.scheme.keys) await this.rotate();
    let group: PendingFrame[] = [];
    let groupBytes = 0;
    for (const frame of frames) {
      const current = this.segments.at(-1)!;
      // A segment's header counts toward its size; a record alone in a new segment is written anyway.
      const header = current.size === 0 ? SEGMENT_HEADER_FRAME_BYTES : 0;
      if (
        current.size + groupBytes > 0 &&
        current.size + header + groupBytes + frame.length > this.maxSegmentBytes
      ) {
        await this.writeGroup(group, groupBytes);
        group = [];
        groupBytes = 0;
        await this.rotate();
      }
      group.push(frame);
      groupBytes += frame.length;
    }
    await this.writeGroup(group, groupBytes);
  }

  private async writeGroup(frames: PendingFrame[], framesBytes: number): Promise<void> {
    if (frames.length === 0) return;
    // Every segment starts with the format header (an empty one: new, rotated, or cut to nothing
    // by a repair), so a reader knows the version and the segment's keys before the first record.
    const segment = this.segments.at(-1)!;
    const starts = segment.size === 0;
    const group: GroupFrame[] = [];
    if (starts) {
      const keys = this.segmentKeys();
      const header = encodeFrame(FrameType.Header, encodeKeyedHeaderPayload(keys), 64);
      segment.scheme = keyedFrames(keys);
      group.push({ parts: [header], length: header.length, endHeight: undefined });
    }
    const scheme = segment.scheme;
    for (const f of frames) {
      const payload = f.payload;
      group.push({
        parts: !(payload instanceof Uint8Array)
          ? [
              encodeFrameHeadOfPieces(
                f.type,
                payload.pieces,
                payload.checks,
                payload.length,
                this.maxRecordBytes,
                scheme,
              ),
              ...payload.pieces,
            ]
          : payload.length < UNCOPIED_RECORD_BYTES
            ? [encodeFrame(f.type, payload, this.maxRecordBytes, scheme)]
            : [encodeFrameHead(f.type, payload, this.maxRecordBytes, scheme), payload],
        length: f.length,
        endHeight: f.endHeight,
        ...(f.signed ? { signed: true as const } : {}),
      });
    }
    const groupBytes = starts ? framesBytes + group[0]!.length : framesBytes;
    // A blocking write: it only copies into the page cache (tens of µs for a height's records,
    // ~1 ms for a MiB of block parts), while an async write is a thread-pool round trip that then
    // waits for the main thread's turn, 10 ms p50 on a validator of four at load 4 and in series
    // before the fdatasync of every signature (docs/network.md, "fourth pass"). The fdatasync,
    // which waits for the disk, stays async. The cost accepted: when the kernel throttles dirty
    // pages or the file system's journal stalls, write() blocks, and that stall is now the main
    // thread's (as it is the writing goroutine's in v0.34, which writes its log synchronously).
    // Except a group of a block's size (our proposal's reaped txs): its write() was 10–50 ms of the
    // main thread on the project's machine under load (the page cache's fresh pages, docs/storage.md
    // "Twenty-fourth pass"), one of the long turns behind broadcast_tx_async's p99, against one
    // thread-pool round trip before the proposal's fdatasync, which waits for the write either way.
    const buffers = group.flatMap((f) => f.parts);
    if (groupBytes >= THREAD_POOL_WRITE_BYTES) await writeAllInPool(this.handle, buffers);
    else writeAllSync(this.handle.fd, buffers, groupBytes);
    const current = this.segments.at(-1)!;
    let offset = current.size;
    for (const frame of group) {
      offset += frame.length;
      if (frame.endHeight !== undefined) {
        this.markers.push({ height: frame.endHeight, segment: current.index, end: offset });
      }
      if (frame.signed) this.latestSignedSegment = current.index;
    }
    current.size = offset;
  }

  /** Closes the full segment durably, starts the next one and removes the oldest beyond the limit. */
  private async rotate(): Promise<void> {
    await this.handle.datasync();
    await this.handle.close();
    const index = this.segments.at(-1)!.index + 1;
    const path = segmentPath(this.dir, index);
    this.handle = await open(path, "a", 0o600);
    this.segments.push({ index, path, size: 0, scheme: PLAIN_FRAMES });
    // The signer's latest record may sit before the latest marker (a precommit, then the commit's
    // marker): it is the signature's only durable trace until the signer's file catches up.
    const protectedFrom = Math.min(
      this.markers.at(-1)?.segment ?? this.segments[0]!.index,
      this.latestSignedSegment ?? Number.POSITIVE_INFINITY,
    );
    while (this.segments.length > this.maxSegments && this.segments[0]!.index < protectedFrom) {
      await unlink(this.segments.shift()!.path);
    }
    const firstKept = this.markers.findIndex((m) => m.segment >= this.segments[0]!.index);
    this.markers.splice(0, firstKept === -1 ? this.markers.length : firstKept);
    // The new file (and any removal) must survive a power cut before records land in it.
    await syncDirectory(this.dir);
  }
}

/** The input's `type` for messages (every consensus input has one), or what it is otherwise. */
function recordKind(input: unknown): string {
  const type = (input as { type?: unknown } | null)?.type;
  return typeof type === "string" ? type.slice(0, 64) : typeof input;
}

/**
 * Writes `buffers` (`total` bytes) in order with blocking writes: a small group copied into one
 * buffer and written at once, as before; a larger one (a block-sized record among them) with
 * writev, so a record of tens of MiB is not copied twice more (into its frame, then the group).
 */
function writeAllSync(fd: number, buffers: readonly Uint8Array[], total: number): void {
  if (buffers.length === 1 || total <= CONCAT_GROUP_BYTES) {
    const buf = buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers, total);
    let written = 0;
    while (written < buf.length) written += writeSync(fd, buf, written, buf.length - written);
    return;
  }
  const cursor = new WritevCursor(buffers);
  for (let batch = cursor.next(); batch.length > 0; batch = cursor.next())
    cursor.wrote(writevSync(fd, batch));
}

/** writeAllSync's writev loop through the thread pool (FileHandle.writev), for a block-sized group. */
async function writeAllInPool(handle: FileHandle, buffers: readonly Uint8Array[]): Promise<void> {
  const cursor = new WritevCursor(buffers);
  for (let batch = cursor.next(); batch.length > 0; batch = cursor.next())
    cursor.wrote((await handle.writev(batch)).bytesWritten);
}

/** Where a writev loop stands in its buffers: the next batch (at most MAX_IOVECS), moved on by what a writev wrote. */
class WritevCursor {
  private i = 0;
  private skip = 0; // bytes of buffers[i] already written

  constructor(private readonly buffers: readonly Uint8Array[]) {}

  /** The buffers still to write, the first from where the last write stopped; empty when all are written. */
  next(): Uint8Array[] {
    const batch: Uint8Array[] = [];
    for (let k = this.i; k < this.buffers.length && batch.length < MAX_IOVECS; k++)
      batch.push(k === this.i ? this.buffers[k]!.subarray(this.skip) : this.buffers[k]!);
    return batch;
  }

  /** Moves past the `n` bytes a writev of next()'s batch wrote (a short write included). */
  wrote(n: number): void {
    if (n === 0) throw new Error("writev wrote nothing");
    while (this.i < this.buffers.length && n >= this.buffers[this.i]!.length - this.skip) {
      n -= this.buffers[this.i]!.length - this.skip;
      this.i++;
      this.skip = 0;
    }
    this.skip += n;
  }
}
