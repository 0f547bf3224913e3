// The append-only log under the mempool's persistent structures (the tx cache, cache.ts, and the
// pool's VersionedMap, versioned-map.ts): every entry names a key, and each key's entries are
// chained, so a version that reads only the entries before its length finds a key's last entry
// there in O(entries of that key appended after it). What an entry carries besides its key is
// the structure's own (parallel arrays in the subclass).
import { KeyPositions } from "./key-positions.js";

export class EntryLog {
  readonly keys: string[] = [];
  /** Position of the previous entry of the same key, -1 when none. */
  readonly previous: number[] = [];
  /**
   * Position of the next entry of the same key, -1 while none. Whether an entry is its key's last
   * within a window is then one array read (isLast), not a Map lookup of a 64-digit hash: the walks
   * over a log (rebuilding it, evicting the cache's oldest, iterating the pool) asked `latest` once
   * per entry, about a third of the mempool's lookups per tx.
   */
  readonly following: number[] = [];
  /**
   * Position of each key's last entry in the whole log (-1 when none): a table of integers, not a
   * Map of hash strings (key-positions.ts says why).
   */
  readonly latest: KeyPositions;

  /** `expected`: distinct keys the log will hold soon (a rebuild knows), to size the table once. */
  constructor(expected = 0) {
    this.latest = new KeyPositions(this.keys, expected);
  }

  /**
   * Appends an entry for `key`; returns its position (the subclass fills its arrays there).
   * `last`: the key's last entry when the caller has just looked it up (one Map lookup per edit,
   * not two: these Maps hold tens of thousands of hashes, and each lookup is a cache miss).
   */
  protected appendKey(key: string, last?: number): number {
    const at = this.keys.length;
    const previous = last ?? this.latest.get(key);
    this.keys.push(key);
    this.previous.push(previous);
    this.following.push(-1);
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
