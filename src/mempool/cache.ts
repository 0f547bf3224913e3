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
    let { order, index, base } = this;
    const at = index.get(hash);
    if (at !== undefined) {
      if (at - base === order.size - 1) return this; // already the newest
      order = order.set(at - base, undefined);
    }
    index = index.set(hash, base + order.size);
    order = order.push(hash);
    while (index.size > capacity) {
      while (order.size > 0 && order.first() === undefined) {
        order = order.shift();
        base++;
      }
      const oldest = order.first();
      if (oldest === undefined) break;
      order = order.shift();
      base++;
      index = index.delete(oldest);
    }
    return TxCache.tidy(order, index, base);
  }

  /**
   * Pushes (`true`) and removes (`false`) many hashes in order, as one transient edit of the List
   * and the Map: the same cache as applying them one at a time, without a persistent copy of both
   * per hash (a block's committed txs are thousands of these; per hash they were the mempool
   * update's largest cost). The old cache is untouched.
   */
  update(changes: readonly (readonly [hash: string, push: boolean])[], capacity: number): TxCache {
    if (changes.length === 0) return this;
    let base = this.base;
    let order = this.order.asMutable();
    const index = this.index.asMutable();
    const dropLeadingHoles = () => {
      while (order.size > 0 && order.first() === undefined) {
        order = order.shift();
        base++;
      }
    };
    for (const [hash, push] of changes) {
      const at = index.get(hash);
      if (!push) {
        if (at === undefined) continue;
        index.delete(hash);
        const i = at - base;
        order = i === order.size - 1 ? order.pop() : order.set(i, undefined);
        dropLeadingHoles();
        continue;
      }
      if (capacity <= 0) continue;
      if (at !== undefined) {
        if (at - base === order.size - 1) continue; // already the newest
        order = order.set(at - base, undefined);
      }
      index.set(hash, base + order.size);
      order = order.push(hash);
      while (index.size > capacity) {
        dropLeadingHoles();
        const oldest = order.first();
        if (oldest === undefined) break;
        order = order.shift();
        base++;
        index.delete(oldest);
      }
      dropLeadingHoles();
    }
    return TxCache.tidy(order.asImmutable(), index.asImmutable(), base);
  }

  remove(hash: string): TxCache {
    const at = this.index.get(hash);
    if (at === undefined) return this;
    const index = this.index.delete(hash);
    const i = at - this.base;
    const order = i === this.order.size - 1 ? this.order.pop() : this.order.set(i, undefined);
    return TxCache.tidy(order, index, this.base);
  }

  /** Drops leading holes, and rebuilds once holes outnumber the hashes (amortised O(1)). */
  private static tidy(order: List<string | undefined>, index: ImmutableMap<string, number>, base: number) {
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
