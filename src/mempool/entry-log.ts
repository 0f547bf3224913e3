// The append-only log under the mempool's persistent structures (the tx cache, cache.ts, and the
// pool's VersionedMap, versioned-map.ts): every entry names a key, and each key's entries are
// chained, so a version that reads only the entries before its length finds a key's last entry
// there in O(entries of that key appended after it). What an entry carries besides its key is
// the structure's own (parallel arrays in the subclass).
import { KeyPositions } from "./key-positions.js";

/** Entries a log that starts empty has room for before its columns first grow. */
const FIRST_CAPACITY = 64;

/**
 * `column` in a new typed array of `capacity` entries, its first `used` entries copied: the growth
 * of a log's integer columns (the subclasses' typed columns grow through it too).
 */
export function grownColumn<T extends Int32Array | Uint8Array>(column: T, capacity: number, used: number): T {
  const grown = new (column.constructor as new (n: number) => T)(capacity);
  grown.set(column.subarray(0, used));
  return grown;
}

export class EntryLog {
  readonly keys: string[] = [];
  /**
   * Position of the previous entry of the same key, -1 when none. The log's integer columns are
   * typed arrays with room for the entries the log is expected to take before it is rebuilt
   * (`capacity`), not JS arrays grown by `push`: each growth of a JS array of 10^5 entries copied it
   * into fresh memory, whose first touch costs ~3 ms a MB on the project's VM, inside the mempool
   * update's turn after a commit (docs/storage.md, twenty-fifth pass); and the collector scans a JS
   * array's every slot, never a typed array's. Entries at or past `keys.length` are not the log's.
   */
  previous: Int32Array;
  /**
   * Position of the next entry of the same key, -1 while none. Whether an entry is its key's last
   * within a window is then one array read (isLast), not a Map lookup of a 64-digit hash: the walks
   * over a log (rebuilding it, evicting the cache's oldest, iterating the pool) asked `latest` once
   * per entry, about a third of the mempool's lookups per tx.
   */
  following: Int32Array;
  /**
   * Position of each key's last entry in the whole log (-1 when none): a table of integers, not a
   * Map of hash strings (key-positions.ts says why).
   */
  readonly latest: KeyPositions;

  /**
   * `expected`: distinct keys the log will hold soon (a rebuild knows), to size the table once;
   * `capacity`: entries it will hold before it is rebuilt, to size its columns once.
   */
  constructor(expected = 0, capacity = FIRST_CAPACITY) {
    const room = Math.max(FIRST_CAPACITY, capacity);
    this.previous = new Int32Array(room);
    this.following = new Int32Array(room);
    this.latest = new KeyPositions(this.keys, expected);
  }

  /** Entries the columns have room for. */
  get capacity(): number {
    return this.previous.length;
  }

  /**
   * Doubles the columns once they are full (a subclass grows its own typed columns here too,
   * calling this first). Past the capacity a log was sized for, a JS array's amortised growth.
   */
  protected grow(capacity: number, used: number): void {
    this.previous = grownColumn(this.previous, capacity, used);
    this.following = grownColumn(this.following, capacity, used);
  }

  /**
   * Appends an entry for `key`; returns its position (the subclass fills its columns there).
   * `last`: the key's last entry when the caller has just looked it up (one Map lookup per edit,
   * not two: these Maps hold tens of thousands of hashes, and each lookup is a cache miss).
   */
  protected appendKey(key: string, last?: number): number {
    const at = this.keys.length;
    if (at === this.previous.length) this.grow(2 * at, at);
    const previous = last ?? this.latest.get(key);
    this.keys.push(key);
    this.previous[at] = previous;
    this.following[at] = -1;
    if (previous >= 0) this.following[previous] = at;
    this.latest.set(key, at);
    return at;
  }

  /** Whether the entry at `at` (< length) is its key's last entry before `length`. */
  isLast(at: number, length: number): boolean {
    const next = this.following[at]!;
    return next < 0 || next >= length;
  }

  /** The position of the last entry before `length` of the key of the entry at `at` (< length). */
  lastFrom(at: number, length: number): number {
    let next = this.following[at]!;
    while (next >= 0 && next < length) {
      at = next;
      next = this.following[at]!;
    }
    return at;
  }

  /** The position of `key`'s last entry before `length`, or -1. */
  lastEntry(key: string, length: number): number {
    let at = this.latest.get(key);
    while (at >= length) at = this.previous[at]!;
    return at;
  }
}
