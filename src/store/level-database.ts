// Opens one classic-level database with binary keys and values. Every store owns exactly one
// database directory under data/, so each store's batches are atomic on their own.
//
// LevelDB's memory, per database, is bounded by these options (config.toml's db_* keys, see
// docs/storage.md "Memory"): the block cache (`cacheSize`), up to two memtables of
// `writeBufferSize` (one being written, one being flushed), and the table cache of at most
// `maxOpenFiles` open tables, each holding its index and bloom filter blocks in memory (a table is
// at most `maxFileSize` bytes; LevelDB raises a maxOpenFiles below 74 to 74).
import { ClassicLevel } from "classic-level";
import {
  type BatchOperations,
  type FillingBatch,
  nativeBatchOf,
  writeOperations,
} from "../level/native-batch.js";
import { StoreError } from "./errors.js";

export type BinaryLevel = ClassicLevel<Uint8Array, Uint8Array>;

/** LevelDB's memory bounds for one database, in classic-level's names and units (bytes). */
export interface LevelMemoryOptions {
  cacheSize: number;
  writeBufferSize: number;
  maxOpenFiles: number;
  maxFileSize: number;
}

/** The defaults of config.toml's db_* keys (rxbft's; classic-level's own default maxOpenFiles is 1000). */
export const DEFAULT_LEVEL_MEMORY: LevelMemoryOptions = {
  cacheSize: 8 * 1024 * 1024,
  writeBufferSize: 4 * 1024 * 1024,
  maxOpenFiles: 100,
  maxFileSize: 2 * 1024 * 1024,
};

export async function openBinaryLevel(
  location: string,
  memory: LevelMemoryOptions = DEFAULT_LEVEL_MEMORY,
): Promise<BinaryLevel> {
  const db = new ClassicLevel<Uint8Array, Uint8Array>(location, {
    keyEncoding: "view",
    valueEncoding: "view",
    createIfMissing: true,
    ...memory,
  });
  try {
    await db.open();
  } catch (error) {
    const detail = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    const hint = /lock/i.test(detail) ? " (is another rxbft process using this home directory?)" : "";
    throw new StoreError("STORE_OPEN_FAILED", `cannot open database ${location}: ${detail}${hint}`, {
      cause: error,
    });
  }
  return db;
}

/**
 * A write batch handed to LevelDB whole.
 *
 * Without `copies`, the operations are kept as parallel arrays (`keys`, `values`, `bytes`) and
 * written through the database's reusable native
 * batch (native-batch.ts: one binding call per operation); while that batch is busy with another
 * write, or where classic-level offers none, through classic-level's array form. Not its chained
 * batch (`db.batch()`): that builds a native WriteBatch freed only when V8 collects the batch's
 * JS object, and V8 is never told about those native bytes, so a height's multi-megabyte index
 * batch waited for a full GC. With `copies` and the native batch free, put and del go straight
 * into it and the arrays stay empty: read them only on a batch made without `copies`. Never put a zero-length key or value: classic-level 3.0 leaks the
 * native copy of each one (32 bytes of malloc, on either path; the main arena's growth under load
 * was the index's empty event values, docs/storage.md "Memory").
 */
export class LevelBatch implements BatchOperations {
  readonly #db: BinaryLevel;
  readonly keys: Uint8Array[] = [];
  /** A put's value; undefined marks a delete. */
  readonly values: (Uint8Array | undefined)[] = [];
  bytes = 0;
  /** With `copies`: the database's native batch, filled as put and del are called. */
  readonly #filling: FillingBatch | undefined;
  readonly #copies: boolean;

  /**
   * `copies`: put and del take a copy of their bytes at once (straight into the database's native
   * batch when it is free, else into JS copies), so the caller may build keys and values in buffers
   * it reuses; such a batch must end with `write` or `abandon`.
   */
  constructor(db: BinaryLevel, options: { copies?: boolean } = {}) {
    this.#db = db;
    this.#copies = options.copies ?? false;
    const native = this.#copies ? nativeBatchOf(db) : undefined;
    this.#filling = native?.available ? native.begin() : undefined;
  }

  put(key: Uint8Array, value: Uint8Array): this {
    if (this.#filling !== undefined) {
      this.#filling.put(key, value);
      return this;
    }
    this.keys.push(this.#copies ? key.slice() : key);
    this.values.push(this.#copies ? value.slice() : value);
    this.bytes += key.length + value.length;
    return this;
  }

  del(key: Uint8Array): this {
    if (this.#filling !== undefined) {
      this.#filling.del(key);
      return this;
    }
    this.keys.push(this.#copies ? key.slice() : key);
    this.values.push(undefined);
    this.bytes += key.length;
    return this;
  }

  /** Drops every operation without writing (a `copies` batch whose build failed). */
  abandon(): void {
    this.#filling?.abandon();
    this.keys.length = 0;
    this.values.length = 0;
  }

  /** Writes every operation in one atomic LevelDB write. */
  write(options: { sync?: boolean } = {}): Promise<void> {
    const sync = options.sync ?? false;
    if (this.#filling !== undefined) return this.#filling.write(sync);
    return writeOperations(this.#db, this, sync);
  }
}
