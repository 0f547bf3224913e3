// The tx cache: a bounded LRU of tx hashes that refuses duplicates before CheckTx runs.
// Persistent (every change returns a new cache; the old one is untouched) and O(log n) per push
// at capacity: an immutable List of hashes oldest first, where a refreshed or removed hash leaves
// a hole, and an immutable Map from hash to its position. Evicting the oldest shifts the List's
// front (holes are skipped once each). An OrderedMap's `first()` walks over every hole its deletes
// leave at the front, up to the cache's size: ~110 µs per push at 10,000 entries against ~2 µs here.
import { Map as ImmutableMap, List, type Seq } from "immutable";

export class TxCache {
  private constructor(
    /** Hashes oldest first; undefined where a hash was refreshed or removed. */
    private readonly order: List<string | undefined>,
    /** Hash → absolute position (the List's index plus `base`). */
    private readonly index: ImmutableMap<string, number>,
    /** Absolute position of the List's first entry. */
    private readonly base: number,
  ) {}

  static readonly EMPTY = new TxCache(List(), ImmutableMap(), 0);

  get size(): number {
    return this.index.size;
  }

  has(hash: string): boolean {
    return this.index.has(hash);
  }

  /** The hashes, oldest first. */
  keySeq(): Seq.Indexed<string> {
    return this.order.toSeq().filter((h): h is string => h !== undefined);
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
   * Pushes (`true`) and removes (`false`) many hashes in order, as one transient edit of the List
   * and the Map: the same cache as applying them one at a time, without a persistent copy of both
   * per hash (a block's committed txs are thousands of these; per hash they were the mempool
   * update's largest cost). The old cache is untouched.
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
    if (!this.index.has(hash)) return this;
    const draft = this.edit();
    draft.remove(hash);
    return draft.done();
  }

  /**
   * A transient copy to edit many times, read between edits, then freeze with `done()`: a batch of
   * admissions reads and pushes the cache once per tx, and one copy per tx was most of its cost.
   * This cache is untouched.
   */
  edit(): TxCacheDraft {
    return new TxCacheDraft(this.order.asMutable(), this.index.asMutable(), this.base);
  }

  /** Drops leading holes, and rebuilds once holes outnumber the hashes (amortised O(1)). */
  static tidy(order: List<string | undefined>, index: ImmutableMap<string, number>, base: number) {
    if (index.size === 0) return TxCache.EMPTY;
    while (order.size > 0 && order.first() === undefined) {
      order = order.shift();
      base++;
    }
    if (order.size > 2 * index.size + 64) {
      const hashes = order.filter((h): h is string => h !== undefined);
      const positions = ImmutableMap<string, number>().withMutations((m) => {
        hashes.forEach((h, i) => {
          m.set(h, i);
        });
      });
      return new TxCache(hashes, positions, 0);
    }
    return new TxCache(order, index, base);
  }
}

/** A cache being edited (TxCache.edit): reads see every edit made so far, in order. */
export class TxCacheDraft {
  constructor(
    private order: List<string | undefined>,
    private readonly index: ImmutableMap<string, number>,
    private base: number,
  ) {}

  has(hash: string): boolean {
    return this.index.has(hash);
  }

  /** Adds or refreshes a hash; evicts the oldest when over capacity. A capacity of 0 keeps nothing. */
  push(hash: string, capacity: number): void {
    if (capacity <= 0) return;
    const { index } = this;
    const at = index.get(hash);
    if (at !== undefined) {
      if (at - this.base === this.order.size - 1) return; // already the newest
      this.order = this.order.set(at - this.base, undefined);
    }
    index.set(hash, this.base + this.order.size);
    this.order = this.order.push(hash);
    // Evict the oldest hash, dropping the holes in front of it on the way. Holes left at the front
    // between edits are harmless (reads skip them) and `done()` drops them: two fewer reads of
    // the List per push.
    while (index.size > capacity) {
      const oldest = this.order.first();
      this.order = this.order.shift();
      this.base++;
      if (oldest !== undefined) index.delete(oldest);
    }
  }

  remove(hash: string): void {
    const at = this.index.get(hash);
    if (at === undefined) return;
    this.index.delete(hash);
    const i = at - this.base;
    this.order = i === this.order.size - 1 ? this.order.pop() : this.order.set(i, undefined);
  }

  /** The edited cache, persistent again; the draft must not be used afterwards. */
  done(): TxCache {
    return TxCache.tidy(this.order.asImmutable(), this.index.asImmutable(), this.base);
  }
}

/** Adds or refreshes a hash; evicts the oldest when over capacity. A capacity of 0 keeps nothing. */
export function cachePush(cache: TxCache, hash: string, capacity: number): TxCache {
  return cache.push(hash, capacity);
}

export function cacheRemove(cache: TxCache, hash: string): TxCache {
  return cache.remove(hash);
}

/** Many pushes (`true`) and removes (`false`) in order, in one transient edit. */
export function cacheUpdate(
  cache: TxCache,
  changes: readonly (readonly [hash: string, push: boolean])[],
  capacity: number,
): TxCache {
  return cache.update(changes, capacity);
}
