// Gives back the native memory a finished load left in LevelDB, once the node is idle (called by
// the idle effect, streams/idle-heap.ts, right before its V8 collection): the databases quiet at
// idle (the tx index's two) are closed and reopened (quiet-reopen.ts), each written database's
// memtable is written out to a table, and each database's reused native write batch is let go.
//
// Why: under load each database fills its memtable (up to db_write_buffer_size_mb, 4 MB) and its
// native batch keeps the buffer of its largest write (a height's block, state or index: megabytes
// at 10,000 tx/s). Nothing else empties them once the load stops: a memtable is written out only
// when it is full, and blockstore.db and state.db write every height, empty ones too, so their
// batches never sit unused long enough for native-batch.ts's idle timer.
//
// How the memtable goes: LevelDB's CompactRange first writes the memtable out (whether or not it
// overlaps the range), then compacts the range's tables level by level. The range asked for is a
// single key above every key the stores write (FLUSH_KEY), so no table overlaps it and no
// compaction follows: only the memtable's flush, into a level-0 table, as LevelDB does on its
// own when the memtable fills. A height written meanwhile is safe: LevelDB queues it behind the
// flush like any write, into the new memtable; a batch being filled or written is left alone
// (NativeBatch.release refuses a busy one); a database closing meanwhile is skipped.
import { basename } from "node:path";
import type { ClassicLevel } from "classic-level";
import { liveNativeBatches } from "./native-batch.js";
import { liveQuietReopens } from "./quiet-reopen.js";

type BinaryLevel = ClassicLevel<Uint8Array, Uint8Array>;

/**
 * Above every key the node's stores write (each starts with a prefix byte below 0xff or an ASCII
 * name). Only a kvstore client could write a key this high (64 bytes of 0xff or more); the tables
 * holding it would then be compacted once more: work LevelDB does anyway, never a wrong result.
 */
export const FLUSH_KEY: Uint8Array = new Uint8Array(64).fill(0xff);

export interface LevelRelease {
  /** Databases whose memtable was written out. */
  databases: number;
  /** Native batches let go (their buffers freed at V8's next collection of the handles). */
  batches: number;
  /** LevelDB's own count of its memtables and block cache, summed over the databases, before and after. */
  levelBytesBefore: number;
  levelBytesAfter: number;
  /**
   * LevelDB's count after the release, by database folder name (`tx_index.db`): what is left is
   * each block cache, so this says which store's reads hold memory once idle.
   */
  levelBytesAfterByDatabase: Record<string, number>;
  /** Databases closed and reopened (quiet-reopen.ts): their mapped tables and block cache let go. */
  reopened: number;
  /** Groups of databases not reopened this time because a use was still in flight. */
  reopenBusy: number;
}

/** LevelDB's estimate of a database's memtables and block cache, in bytes; 0 if not known. */
export function levelMemoryBytes(db: BinaryLevel): number {
  const value = Number(db.getProperty("leveldb.approximate-memory-usage"));
  return Number.isFinite(value) ? value : 0;
}

function isOpen(db: BinaryLevel): boolean {
  return db.status === "open";
}

/**
 * Releases what every database written in this process holds for a load that is over. One
 * database at a time, so at most one of libuv's pool threads waits on a flush.
 */
export async function releaseIdleLevelMemory(): Promise<LevelRelease> {
  const result: LevelRelease = {
    databases: 0,
    batches: 0,
    levelBytesBefore: 0,
    levelBytesAfter: 0,
    levelBytesAfterByDatabase: {},
    reopened: 0,
    reopenBusy: 0,
  };
  // First the quiet databases: closed and reopened, they hold no table and no cache, and the flush
  // below finds their memtables already written out (LevelDB's open writes out what its log held).
  for (const group of liveQuietReopens()) {
    const outcome = await group.reopen();
    if (outcome === "reopened") result.reopened += group.names.length;
    else if (outcome === "busy") result.reopenBusy++;
  }
  for (const batch of liveNativeBatches()) {
    if (batch.release()) result.batches++;
    const db = batch.database;
    if (!isOpen(db)) continue;
    const before = levelMemoryBytes(db);
    try {
      await db.compactRange(FLUSH_KEY, FLUSH_KEY);
    } catch (error) {
      // Closed while the flush was asked for (the node stopping): nothing left to release.
      if (!isOpen(db)) continue;
      throw error;
    }
    if (!isOpen(db)) continue;
    result.databases++;
    const after = levelMemoryBytes(db);
    result.levelBytesBefore += before;
    result.levelBytesAfter += after;
    const name = basename(db.location);
    result.levelBytesAfterByDatabase[name] = (result.levelBytesAfterByDatabase[name] ?? 0) + after;
  }
  return result;
}

/**
 * releaseIdleLevelMemory, its figures named for the idle effect's log line (MB rounded to 0.1);
 * each database's remainder as `level_mb_after_<folder>` (`level_mb_after_tx_index_db`).
 */
export async function releaseIdleLevelMemoryForLog(): Promise<Record<string, number>> {
  const r = await releaseIdleLevelMemory();
  const mb = (bytes: number) => Math.round(bytes / 104857.6) / 10;
  const byDatabase = Object.entries(r.levelBytesAfterByDatabase).map(([name, bytes]) => [
    `level_mb_after_${name.replace(/[^A-Za-z0-9]/g, "_")}`,
    mb(bytes),
  ]);
  return {
    level_databases_reopened: r.reopened,
    ...(r.reopenBusy > 0 ? { level_reopen_busy: r.reopenBusy } : {}),
    level_databases_flushed: r.databases,
    level_batches_released: r.batches,
    level_mb_before: mb(r.levelBytesBefore),
    level_mb_after: mb(r.levelBytesAfter),
    ...Object.fromEntries(byDatabase),
  };
}
