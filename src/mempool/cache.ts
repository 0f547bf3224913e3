// The tx cache: a bounded LRU of tx hashes that refuses duplicates before CheckTx runs.
//
// Persistent (every change returns a new cache; an old one reads as it did) with O(1) plain-JS
// operations, no Immutable.js: a version is a window over an append-only log its lineage shares.
// The log records every push and removal in order; a version is (log, length, head, size): the
// entries before `length` are its history, those before `head` are evicted. A hash's state in a
// version is its last entry before `length` (found through `latest` and, for an old version read
// after newer appends, the `previous` chain of that hash), live when that entry is a push at or
// after `head`.
//
// Why it is still pure: an entry, once appended, never changes, and a version never reads past its
// `length`, so what any version answers never changes. Only the newest version of a log (the one
// whose length is the log's) appends in place; any other that is edited (a second branch, as tests
// make, or an edit after an abandoned one) first copies its live hashes into a log of its own.
//
// Why the heap stays flat (a rerooted map pinned every later change behind any old version, issue
// 19): a log is rebuilt from its live hashes once it holds more than REBUILT_PAST times as many
// entries as hashes (plus a margin), so a log holds O(capacity) entries, and an old version pins
// only the log it was made on, never what later versions append to a new one. Rebuilding costs
// O(size) after at least (REBUILT_PAST − 1) × size pushes: amortised O(1).
//
// Why four times, where the pool's map (versioned-map.ts) rebuilds past twice: the cache is full
// under load (10,000 by default, each tx pushed on arrival and again when committed), so at twice
// every push was followed, amortised, by another append of a rebuild, the largest single source of
// the mempool's Map writes in a profile at 20,600 tx/s; at four times a third of one. The cost is
// a log of up to 4 × capacity small entries (~1.6 MB at the default), its hashes shared.
import { Seq } from "immutable";
import { EntryLog, grownColumn } from "./entry-log.js";

/** A log is rebuilt once it holds more than this many entries per live hash (plus 1,024). */
export const REBUILT_PAST = 4;

/** The mutable log shared by one lineage of versions (see the header); keys are tx hashes. */
class CacheLog extends EntryLog {
  /** Whether each entry is a push (1) or a removal (0): a typed column, as entry-log.ts says why. */
  pushes: Uint8Array = new Uint8Array(this.capacity);

  protected override grow(capacity: number, used: number): void {
    super.grow(capacity, used);
    this.pushes = grownColumn(this.pushes, capacity, used);
  }

  append(hash: string, push: boolean, last?: number): void {
    const at = this.appendKey(hash, last);
    this.pushes[at] = push ? 1 : 0;
  }
}

/**
 * Entries a log rebuilt over `size` live hashes takes before TxCache.of rebuilds it again, if the
 * cache stays near that size (as a full one does): its columns are sized for them once.
 */
const roomAfterRebuild = (size: number): number => REBUILT_PAST * size + 1025;

/** The window a version (or a draft) reads its log through. */
interface Window {
  log: CacheLog;
  length: number;
  head: number;
  size: number;
}

/** The live position of `hash` in a window, or -1. */
function liveAt(w: Window, hash: string): number {
  const at = w.log.lastEntry(hash, w.length);
  return at >= w.head && w.log.pushes[at] === 1 ? at : -1;
}

/** The live hashes of a window, oldest first. */
function liveHashes(w: Window): string[] {
  const out: string[] = [];
  for (let at = w.head; at < w.length; at++) {
    if (w.log.pushes[at] === 1 && w.log.isLast(at, w.length)) {
      out.push(w.log.keys[at]!);
    }
  }
  return out;
}

/** A new log holding just these hashes, oldest first, and the window over it. */
function rebuilt(hashes: readonly string[]): Window {
  const room = roomAfterRebuild(hashes.length);
  // Its distinct hashes until then: the live ones and, in a full cache under load, one new hash per
  // two entries (each admitted tx is pushed new, then refreshed as it is committed).
  const log = new CacheLog(Math.ceil((room + hashes.length) / 2), room);
  // Distinct hashes into a new log: none has an earlier entry to look up.
  for (const hash of hashes) log.append(hash, true, -1);
  return { log, length: hashes.length, head: 0, size: hashes.length };
}

export class TxCache {
  private constructor(
    /** The window (see the header): read by this module's functions, never written. */
    readonly log: CacheLog,
    readonly length: number,
    readonly head: number,
    /** Number of live hashes. */
    readonly size: number,
  ) {}

  static readonly EMPTY = new TxCache(new CacheLog(), 0, 0, 0);

  has(hash: string): boolean {
    return this.size > 0 && liveAt(this, hash) >= 0;
  }

  /** The hashes, oldest first. */
  keySeq(): Seq.Indexed<string> {
    return Seq(liveHashes(this));
  }

  /** Entries its log holds, for the bound on memory (tests). */
  get retainedEntries(): number {
    return this.log.keys.length;
  }

  clear(): TxCache {
    return TxCache.EMPTY;
  }

  /** Adds or refreshes a hash; evicts the oldest when over capacity. A capacity of 0 keeps nothing. */
  push(hash: string, capacity: number): TxCache {
    if (capacity <= 0) return this;
    const draft = this.edit();
    draft.push(hash, capacity);
    return draft.done();
  }

  /**
   * Pushes (`true`) and removes (`false`) many hashes in order, as one edit: the same cache as
   * applying them one at a time. The old cache is untouched.
   */
  update(changes: readonly (readonly [hash: string, push: boolean])[], capacity: number): TxCache {
    if (changes.length === 0) return this;
    const draft = this.edit();
    for (const [hash, push] of changes) {
      if (push) draft.push(hash, capacity);
      else draft.remove(hash);
    }
    return draft.done();
  }

  remove(hash: string): TxCache {
    if (!this.has(hash)) return this;
    const draft = this.edit();
    draft.remove(hash);
    return draft.done();
  }

  /**
   * A draft to edit many times, read between edits, then freeze with `done()`: a batch of
   * admissions reads and pushes the cache once per tx. This cache is untouched. The draft appends
   * to this cache's log when this cache is the log's newest version, else to a copy (header).
   */
  edit(): TxCacheDraft {
    // An empty cache starts a log of its own: EMPTY is shared by every mempool and test.
    if (this.size === 0) return new TxCacheDraft(new CacheLog(), 0, 0, 0);
    if (this.log.keys.length === this.length) {
      return new TxCacheDraft(this.log, this.length, this.head, this.size);
    }
    const copy = rebuilt(liveHashes(this));
    return new TxCacheDraft(copy.log, copy.length, copy.head, copy.size);
  }

  /** A version over a draft's window, its log rebuilt once stale entries outnumber the live ones. */
  static of(w: Window): TxCache {
    if (w.size === 0) return TxCache.EMPTY;
    if (w.length >= roomAfterRebuild(w.size)) {
      const fresh = rebuilt(liveHashes(w));
      return new TxCache(fresh.log, fresh.length, fresh.head, fresh.size);
    }
    return new TxCache(w.log, w.length, w.head, w.size);
  }
}

/** A cache being edited (TxCache.edit): reads see every edit made so far, in order. */
export class TxCacheDraft implements Window {
  constructor(
    public log: CacheLog,
    public length: number,
    public head: number,
    public size: number,
  ) {}

  has(hash: string): boolean {
    return this.size > 0 && liveAt(this, hash) >= 0;
  }

  /**
   * Makes this draft the newest user of its log before it appends: another draft of the same
   * version may have appended since this one began (two drafts alive at once), and then this one
   * continues on a copy of what it holds.
   */
  private own(): void {
    if (this.log.keys.length === this.length) return;
    const copy = rebuilt(liveHashes(this));
    this.log = copy.log;
    this.length = copy.length;
    this.head = copy.head;
  }

  /** Adds or refreshes a hash; evicts the oldest when over capacity. A capacity of 0 keeps nothing. */
  push(hash: string, capacity: number): void {
    this.pushWasLive(hash, capacity);
  }

  /**
   * `push`, returning whether the hash was live before it: `has` then `push` with one lookup of
   * the hash instead of two (admission asks both of every tx; the cache's log holds tens of
   * thousands of hashes, and each lookup is mostly cache misses).
   */
  pushWasLive(hash: string, capacity: number): boolean {
    if (capacity <= 0) return this.has(hash);
    this.own();
    // Owned, the draft's window is the whole log: the hash's last entry is `latest`'s.
    const last = this.log.latest.get(hash);
    const live = last >= this.head && this.log.pushes[last] === 1;
    if (live && last === this.length - 1) return true; // already the newest
    this.log.append(hash, true, last);
    this.length++;
    if (!live) this.size++;
    // Evict the oldest live hashes; stale entries in front of them are stepped over once each.
    while (this.size > capacity) {
      const oldest = this.head++;
      if (this.log.pushes[oldest] === 1 && this.log.isLast(oldest, this.length)) this.size--;
    }
    return live;
  }

  remove(hash: string): void {
    if (this.size === 0) return;
    // Not the log's newest user (another draft appended): an absent hash must not cost a rebuild.
    if (this.log.keys.length !== this.length && liveAt(this, hash) < 0) return;
    this.own();
    const last = this.log.latest.get(hash);
    if (last < this.head || this.log.pushes[last] !== 1) return;
    this.log.append(hash, false, last);
    this.length++;
    this.size--;
  }

  /** The edited cache, persistent again; the draft must not be used afterwards. */
  done(): TxCache {
    return TxCache.of(this);
  }
}

/** Adds or refreshes a hash; evicts the oldest when over capacity. A capacity of 0 keeps nothing. */
export function cachePush(cache: TxCache, hash: string, capacity: number): TxCache {
  return cache.push(hash, capacity);
}

export function cacheRemove(cache: TxCache, hash: string): TxCache {
  return cache.remove(hash);
}
