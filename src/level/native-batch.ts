// One native LevelDB WriteBatch per database, filled by one binding call per operation and
// cleared after each write, instead of handing classic-level an array of {type, key, value}
// objects.
//
// Why: the array form (`db.batch(ops)`) costs the main thread 4-9 µs per operation: abstract-level
// copies every operation into a new object, then classic-level's native batch_do reads each
// object's `type`, `key` and `value` by name (a property lookup, and a V8 string made from a C
// string, for each) before copying the bytes. A height of 16k txs writes ~80k index operations,
// and that conversion was ~11 % of the main thread under load (issue 19). batch_put takes the key
// and value as arguments: one call, two copies, ~1-2 µs.
//
// Why one batch per database, reused, rather than a chained batch per write: classic-level frees
// a chained batch's native WriteBatch only when V8 collects its JS handle, and V8 is never told
// about those native bytes, so a height's multi-megabyte batch waited for a full GC. Reused, the
// WriteBatch keeps the capacity of its largest write (LevelDB's Clear keeps its buffer), a bounded
// cost: a batch that grew past RETAIN_BYTES is dropped after its write and a new one made next time.
//
// A batch whose keys are built in reused buffers (the tx index's) fills it as it goes
// (`begin`, FillingBatch): each put copies its bytes into the WriteBatch at once.
//
// classic-level 3.0 exposes no public call for this, so it is reached through its binding (the
// same loaded addon as the database's) and the database's context symbol. package.json pins
// classic-level's exact version for this reason: a release that keeps these names but changes
// what they take must be checked (test/integration/level-batch.test.ts) before it is allowed. If either is missing (a
// different classic-level), `nativeBatchOf` answers undefined and callers use the array form.
import { createRequire } from "node:module";
import type { ClassicLevel } from "classic-level";

type BinaryLevel = ClassicLevel<Uint8Array, Uint8Array>;

interface BatchBinding {
  batch_init(context: unknown): unknown;
  batch_put(batch: unknown, key: Uint8Array, value: Uint8Array): void;
  batch_del(batch: unknown, key: Uint8Array): void;
  batch_clear(batch: unknown): void;
  batch_write(batch: unknown, options: { sync: boolean }): Promise<void>;
}

/** A written batch larger than this is not kept for reuse (its buffer would stay this large). */
export const RETAIN_BYTES = 16 * 1024 * 1024;

/**
 * A batch not written to for this long is let go (its buffer freed when V8 collects the handle;
 * V8's memory reducer runs full collections once the load stops), so a node back to idle does not
 * keep each database's largest write: ~9 MB for tx_index.db after heights of 16k txs.
 */
export const IDLE_RELEASE_MS = 10_000;

function loadBinding(): BatchBinding | undefined {
  try {
    const binding = createRequire(import.meta.url)("classic-level/binding.js") as Partial<BatchBinding>;
    const calls = ["batch_init", "batch_put", "batch_del", "batch_clear", "batch_write"] as const;
    return calls.every((name) => typeof binding[name] === "function") ? (binding as BatchBinding) : undefined;
  } catch {
    return undefined;
  }
}

const binding = loadBinding();

/** The operations of one write, as parallel arrays (no object per operation). */
export interface BatchOperations {
  /** A key per operation. */
  readonly keys: readonly Uint8Array[];
  /** The value of a put; undefined for a delete. */
  readonly values: readonly (Uint8Array | undefined)[];
}

/** The reusable native batch of one database: one write at a time. */
export class NativeBatch {
  #handle: unknown;
  #busy = false;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;

  private constructor(
    private readonly binding: BatchBinding,
    private readonly context: unknown,
    private readonly db: BinaryLevel,
    private readonly idleReleaseMs: number,
  ) {}

  static create(db: BinaryLevel, idleReleaseMs = IDLE_RELEASE_MS): NativeBatch | undefined {
    if (binding === undefined) return undefined;
    const symbol = Object.getOwnPropertySymbols(db).find((s) => s.description === "context");
    const context = symbol === undefined ? undefined : (db as unknown as Record<symbol, unknown>)[symbol];
    if (context === undefined || context === null) return undefined;
    const batch = new NativeBatch(binding, context, db, idleReleaseMs);
    made.add(new WeakRef(batch));
    return batch;
  }

  /** The database this batch writes to. */
  get database(): BinaryLevel {
    return this.db;
  }

  /**
   * Lets the batch (and the buffer of its largest write) go now, unless a write is under way:
   * for the node's idle release (idle-release.ts). blockstore.db and state.db are written every
   * height, empty ones too, so their batches never reach the idle timer's release while blocks
   * are made. The next write makes a new batch. Answers whether one was let go.
   */
  release(): boolean {
    if (this.#busy || this.#handle === undefined) return false;
    this.#handle = undefined;
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    return true;
  }

  /** Whether a native WriteBatch (and the buffer of its largest write) is held for reuse. */
  get retained(): boolean {
    return this.#handle !== undefined;
  }

  /** After each write: the batch is let go once no write came for idleReleaseMs. */
  #releaseWhenIdle(): void {
    if (this.#idleTimer !== undefined) {
      this.#idleTimer.refresh();
      return;
    }
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      if (!this.#busy) this.#handle = undefined;
    }, this.idleReleaseMs);
    this.#idleTimer.unref();
  }

  /** Whether a write can go through this batch now (the database is open and no write is under way). */
  get available(): boolean {
    return !this.#busy && this.db.status === "open";
  }

  /** Starts filling this batch directly (FillingBatch); only when `available`. */
  begin(): FillingBatch {
    if (!this.available) throw new Error("native batch used while busy or with the database closed");
    this.#handle ??= this.binding.batch_init(this.context);
    this.#busy = true;
    return new FillingBatch(
      this.binding,
      this.#handle,
      (bytes) => {
        if (bytes > RETAIN_BYTES) this.#handle = undefined;
        this.#busy = false;
        this.#releaseWhenIdle();
      },
      () => this.db.status === "open",
    );
  }

  /**
   * Writes the operations in one atomic LevelDB write. Only when `available`: the batch is filled
   * synchronously here and is in use until the returned promise settles.
   */
  write(operations: BatchOperations, sync: boolean): Promise<void> {
    const filling = this.begin();
    try {
      fillRange(filling, operations, 0, operations.keys.length);
    } catch (error) {
      filling.abandon();
      throw error;
    }
    return filling.write(sync);
  }
}

/** Operations [from, to) put (or deleted, for an undefined value) into `filling`. */
export function fillRange(
  filling: FillingBatch,
  operations: BatchOperations,
  from: number,
  to: number,
): void {
  const { keys, values } = operations;
  for (let i = from; i < to; i++) {
    const value = values[i];
    if (value === undefined) filling.del(keys[i]!);
    else filling.put(keys[i]!, value);
  }
}

/**
 * A native batch being filled as the caller goes (NativeBatch.begin): each put and del copies its
 * bytes into LevelDB's WriteBatch at once, so the caller may build every key in one reused buffer.
 * Ends with `write` or `abandon`; the database's batch is busy until then.
 */
export class FillingBatch {
  bytes = 0;
  #open = true;

  constructor(
    private readonly binding: BatchBinding,
    private readonly handle: unknown,
    private readonly release: (bytes: number) => void,
    private readonly isOpen: () => boolean,
  ) {}

  put(key: Uint8Array, value: Uint8Array): void {
    this.binding.batch_put(this.handle, key, value);
    this.bytes += key.length + value.length;
  }

  del(key: Uint8Array): void {
    this.binding.batch_del(this.handle, key);
    this.bytes += key.length;
  }

  /** Writes everything put so far in one atomic LevelDB write. */
  write(sync: boolean): Promise<void> {
    this.#close();
    if (!this.isOpen()) {
      // Closed while this batch was filled: LevelDB must not be reached (classic-level's own
      // calls refuse the same way).
      this.binding.batch_clear(this.handle);
      this.release(this.bytes);
      return Promise.reject(new Error("Database is not open: cannot write the batch"));
    }
    const done = () => {
      this.binding.batch_clear(this.handle);
      this.release(this.bytes);
    };
    let written: Promise<void>;
    try {
      written = this.binding.batch_write(this.handle, { sync });
    } catch (error) {
      // Thrown before the write started: the batch must still be cleared and given back, or the
      // database's batch would stay busy and its buffer held for good.
      done();
      return Promise.reject(error);
    }
    return written.then(done, (error: unknown) => {
      done();
      throw error;
    });
  }

  /** Drops what was put (the build failed): nothing is written. */
  abandon(): void {
    if (!this.#open) return;
    this.#close();
    this.binding.batch_clear(this.handle);
    this.release(this.bytes);
  }

  #close(): void {
    if (!this.#open) throw new Error("native batch written or abandoned twice");
    this.#open = false;
  }
}

const batches = new WeakMap<BinaryLevel, NativeBatch | null>();

/**
 * Every native batch made in this process, held weakly (a closed database's goes with it): the
 * databases the process writes, for the idle release. classic-level keeps no list of its own.
 */
const made = new Set<WeakRef<NativeBatch>>();

/** The native batches still alive, so the databases written through them (idle-release.ts). */
export function liveNativeBatches(): NativeBatch[] {
  const live: NativeBatch[] = [];
  for (const ref of made) {
    const batch = ref.deref();
    if (batch === undefined) made.delete(ref);
    else live.push(batch);
  }
  return live;
}

/**
 * The database's reusable native batch, or undefined where classic-level offers none.
 * `idleReleaseMs` applies when this call makes it (tests).
 */
export function nativeBatchOf(db: BinaryLevel, idleReleaseMs = IDLE_RELEASE_MS): NativeBatch | undefined {
  let batch = batches.get(db);
  if (batch === undefined) {
    batch = NativeBatch.create(db, idleReleaseMs) ?? null;
    batches.set(db, batch);
  }
  return batch ?? undefined;
}

/**
 * Writes the operations in one atomic LevelDB write: through the database's reused native batch
 * where it is free, else classic-level's array form (another write holds the batch, or this
 * classic-level has no binding to reach). The one place that chooses, so the stores and the
 * in-process app cannot drift apart on it (the sync flag, the fallback).
 */
export function writeOperations(db: BinaryLevel, operations: BatchOperations, sync: boolean): Promise<void> {
  const native = nativeBatchOf(db);
  if (native?.available) return native.write(operations, sync);
  const { keys, values } = operations;
  const array = new Array<
    { type: "put"; key: Uint8Array; value: Uint8Array } | { type: "del"; key: Uint8Array }
  >(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = values[i];
    array[i] = value === undefined ? { type: "del", key } : { type: "put", key, value };
  }
  return db.batch(array, { sync });
}
