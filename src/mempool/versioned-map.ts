// A persistent map from string keys to values, in insertion order (a key set again keeps its
// place, as Immutable's OrderedMap does), for the mempool's pool and running checks: plain JS
// arrays and one Map, O(1) per get/set/delete, instead of Immutable.js's tries (1.5–5 µs per
// operation under load, issue 19).
//
// A version is a window over an append-only log its lineage shares: every set and delete is one
// entry; the version reads the entries before its `length`. A key's value in a version is its last
// entry before `length` (through `latest`, and for an old version read after newer appends, the
// `previous` chain of that key); its place is where that incarnation of the key was first set.
//
// Why it is still pure: an entry never changes once appended and a version never reads past its
// length, so what any version answers never changes. Only the newest version of a log appends in
// place; an edit of any other (a second branch, a second draft alive at once) first copies its
// live entries into a log of its own (TxCache does the same, src/mempool/cache.ts).
//
// Why the heap stays flat: a log is rebuilt from its live entries once it holds more than twice as
// many entries as keys (plus a margin), so it holds O(size) values, and an old version pins only
// the log it was made on. Rebuilding costs O(size) after at least as many edits: amortised O(1).
import { Seq } from "immutable";
import { EntryLog, grownColumn } from "./entry-log.js";

/** Marks a delete entry. */
const GONE: unique symbol = Symbol("gone");

class MapLog<V> extends EntryLog {
  /** The value set, or GONE for a delete. */
  readonly values: (V | typeof GONE)[] = [];
  /** For a set: where this incarnation of the key was first set (its place in the order). */
  starts: Int32Array = new Int32Array(this.capacity);

  protected override grow(capacity: number, used: number): void {
    super.grow(capacity, used);
    this.starts = grownColumn(this.starts, capacity, used);
  }

  append(key: string, value: V | typeof GONE, start: number, last?: number): void {
    const at = this.appendKey(key, last);
    this.values.push(value);
    this.starts[at] = start < 0 ? at : start;
  }
}

/**
 * Entries a log rebuilt over `size` live keys takes before VersionedMap.of rebuilds it again, if
 * the map stays near that size: its columns are sized for them once (entry-log.ts).
 */
const roomAfterRebuild = (size: number): number => 2 * size + 1025;

interface Window<V> {
  log: MapLog<V>;
  length: number;
  size: number;
}

/** The position of `key`'s live entry in a window, or -1. */
function liveAt<V>(w: Window<V>, key: string): number {
  const at = w.log.lastEntry(key, w.length);
  return at >= 0 && w.log.values[at] !== GONE ? at : -1;
}

/** `key`'s live value in a window, or undefined. */
function valueIn<V>(w: Window<V>, key: string): V | undefined {
  if (w.size === 0) return undefined;
  const at = liveAt(w, key);
  return at < 0 ? undefined : (w.log.values[at] as V);
}

/**
 * Where the value of the live key placed at `p` is (its last entry), or -1 when no live key has
 * its place at `p`: the order is walked by place, the value read from the key's last entry.
 */
function placedAt<V>(log: MapLog<V>, p: number, length: number): number {
  if (log.starts[p] !== p || log.values[p] === GONE) return -1;
  const at = log.lastFrom(p, length);
  return log.values[at] !== GONE && log.starts[at] === p ? at : -1;
}

function* entriesOf<V>(w: Window<V>): Generator<[string, V]> {
  const { log, length } = w;
  for (let p = 0; p < length; p++) {
    const at = placedAt(log, p, length);
    if (at >= 0) yield [log.keys[p]!, log.values[at] as V];
  }
}

function* valuesOf<V>(w: Window<V>): Generator<V> {
  const { log, length } = w;
  for (let p = 0; p < length; p++) {
    const at = placedAt(log, p, length);
    if (at >= 0) yield log.values[at] as V;
  }
}

/** The live values in order, as an array (no iterator per value). */
function valueArray<V>(w: Window<V>): V[] {
  const { log, length } = w;
  const out: V[] = [];
  for (let p = 0; p < length; p++) {
    const at = placedAt(log, p, length);
    if (at >= 0) out.push(log.values[at] as V);
  }
  return out;
}

function rebuilt<V>(w: Window<V>): Window<V> {
  // The log being rebuilt took w.length entries in its lifetime: a pool that swings with each block
  // (thousands after a commit, tens of thousands before the next) takes about as many in the next,
  // where the steady-size bound alone left its columns to double three times a height.
  const room = Math.max(roomAfterRebuild(w.size), w.length);
  // Its distinct keys until then: the live ones and, in a pool of steady size, one new key per two
  // entries (an admission for each tx that leaves).
  const log = new MapLog<V>(Math.ceil((room + w.size) / 2), room);
  // Distinct keys into a new log: none has an earlier entry to look up. Walked by place, as
  // entriesOf does, without a generator's step and entry pair per key.
  const { log: from, length } = w;
  for (let p = 0; p < length; p++) {
    const at = placedAt(from, p, length);
    if (at >= 0) log.append(from.keys[p]!, from.values[at] as V, -1, -1);
  }
  return { log, length: log.keys.length, size: log.keys.length };
}

export class VersionedMap<V> implements Iterable<[string, V]> {
  private constructor(
    /** The window (see the header): read by this module, never written. */
    readonly log: MapLog<V>,
    readonly length: number,
    readonly size: number,
    /**
     * Whether the log's rebuild waits (holdingRebuild): the versions made from this one, drafts
     * included, keep appending past the bound until a version with the rebuild released.
     */
    readonly rebuildHeld = false,
  ) {}

  static empty<V>(): VersionedMap<V> {
    return new VersionedMap<V>(new MapLog<V>(), 0, 0);
  }

  /**
   * A version over a draft's window, its log rebuilt once dead entries outnumber live ones (unless
   * the rebuild is held: then the version holds it too).
   */
  static of<V>(w: Window<V>, rebuildHeld = false): VersionedMap<V> {
    if (w.size === 0) return VersionedMap.empty();
    if (!rebuildHeld && w.length >= roomAfterRebuild(w.size)) {
      const fresh = rebuilt(w);
      return new VersionedMap(fresh.log, fresh.length, fresh.size);
    }
    return new VersionedMap(w.log, w.length, w.size, rebuildHeld);
  }

  /**
   * This map, with the rebuild of its log held (`true`) until a later version releases it
   * (`false`: rebuilt then if over the bound). For a run of edits that empties much of a large map
   * in pieces, as a block's commit does: its log would be rebuilt in the piece where the dead
   * entries first outnumber the live ones, copying the half still live, where rebuilt once the run
   * ends it copies only what is left (a pool's update after a commit: a rebuild of ~10,000 live txs
   * in a piece, 15–35 ms here, against one of the ~5,000 admitted since the reap at its end). A log
   * holds then up to the run's deletes beyond its usual bound. Nothing a version answers changes.
   */
  holdingRebuild(held: boolean): VersionedMap<V> {
    if (held === this.rebuildHeld) return this;
    return VersionedMap.of(this, held);
  }

  isEmpty(): boolean {
    return this.size === 0;
  }

  get(key: string): V | undefined {
    return valueIn(this, key);
  }

  has(key: string): boolean {
    return this.size > 0 && liveAt(this, key) >= 0;
  }

  /** Entries its log holds, for the bound on memory (tests). */
  get retainedEntries(): number {
    return this.log.keys.length;
  }

  [Symbol.iterator](): Iterator<[string, V]> {
    return entriesOf(this);
  }

  entries(): IterableIterator<[string, V]> {
    return entriesOf(this);
  }

  *keys(): IterableIterator<string> {
    for (const [key] of entriesOf(this)) yield key;
  }

  values(): IterableIterator<V> {
    return valuesOf(this);
  }

  /** The first value in order, or undefined when empty. */
  first(): V | undefined {
    for (const value of valuesOf(this)) return value;
    return undefined;
  }

  keySeq(): Seq.Indexed<string> {
    return Seq([...this.keys()]);
  }

  valueSeq(): Seq.Indexed<V> {
    return Seq(valueArray(this));
  }

  /** The values in order, as a new array. */
  toValueArray(): V[] {
    return valueArray(this);
  }

  set(key: string, value: V): VersionedMap<V> {
    return this.withMutations((m) => m.set(key, value));
  }

  delete(key: string): VersionedMap<V> {
    if (!this.has(key)) return this;
    return this.withMutations((m) => m.delete(key));
  }

  clear(): VersionedMap<V> {
    return VersionedMap.empty();
  }

  /** A draft: edit it, read it between edits, then `asImmutable()`. This version is untouched. */
  asMutable(): MapDraft<V> {
    if (this.size === 0) return new MapDraft(new MapLog<V>(), 0, 0);
    return new MapDraft(this.log, this.length, this.size, this.rebuildHeld);
  }

  withMutations(edit: (draft: MapDraft<V>) => void): VersionedMap<V> {
    const draft = this.asMutable();
    edit(draft);
    return draft.asImmutable();
  }
}

/** A map being edited (VersionedMap.asMutable): reads see every edit made so far. */
export class MapDraft<V> implements Window<V> {
  constructor(
    public log: MapLog<V>,
    public length: number,
    public size: number,
    /** The version's rebuildHeld, passed on to the version this draft makes. */
    private readonly rebuildHeld = false,
  ) {}

  /** Makes this draft the log's newest user before it appends, else moves it to a copy. */
  private own(): void {
    if (this.log.keys.length === this.length) return;
    const copy = rebuilt(this);
    this.log = copy.log;
    this.length = copy.length;
  }

  get(key: string): V | undefined {
    return valueIn(this, key);
  }

  has(key: string): boolean {
    return this.size > 0 && liveAt(this, key) >= 0;
  }

  set(key: string, value: V): this {
    this.own();
    // Owned, the draft's window is the whole log: the key's last entry is `latest`'s.
    const last = this.log.latest.get(key);
    const live = last >= 0 && this.log.values[last] !== GONE;
    this.log.append(key, value, live ? this.log.starts[last]! : -1, last);
    this.length++;
    if (!live) this.size++;
    return this;
  }

  /**
   * Sets `key` only when it has no live value; returns whether it did. The same as `has` then
   * `set`, with one lookup of the key instead of two: the pool's keys are tens of thousands of
   * hashes, and each lookup is mostly cache misses (issue 19's profile: a tenth of the mempool).
   */
  setIfAbsent(key: string, value: V): boolean {
    if (this.log.keys.length !== this.length) {
      if (this.has(key)) return false;
      this.set(key, value);
      return true;
    }
    // Owned: the key's last entry is `latest`'s.
    const last = this.log.latest.get(key);
    if (last >= 0 && this.log.values[last] !== GONE) return false;
    this.log.append(key, value, -1, last);
    this.length++;
    this.size++;
    return true;
  }

  /**
   * Deletes `key` and returns the value it had (undefined when it had none): `get` then `delete`
   * with one lookup instead of two, where the draft is its log's newest user (the usual case).
   */
  take(key: string): V | undefined {
    if (this.size === 0) return undefined;
    if (this.log.keys.length !== this.length) {
      const value = valueIn(this, key);
      if (value !== undefined) this.delete(key);
      return value;
    }
    // Owned: the key's last entry is `latest`'s.
    const last = this.log.latest.get(key);
    if (last < 0) return undefined;
    const value = this.log.values[last]!;
    if (value === GONE) return undefined;
    this.log.append(key, GONE, -1, last);
    this.length++;
    this.size--;
    return value;
  }

  delete(key: string): this {
    if (this.size === 0) return this;
    // Not the log's newest user (another draft appended): an absent key must not cost a rebuild.
    if (this.log.keys.length !== this.length && liveAt(this, key) < 0) return this;
    this.own();
    const last = this.log.latest.get(key);
    if (last < 0 || this.log.values[last] === GONE) return this;
    this.log.append(key, GONE, -1, last);
    this.length++;
    this.size--;
    return this;
  }

  /** The edited map, persistent again; the draft must not be used afterwards. */
  asImmutable(): VersionedMap<V> {
    return VersionedMap.of(this, this.rebuildHeld);
  }
}
