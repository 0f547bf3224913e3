// The tx cache: a bounded LRU of tx hashes that refuses duplicates before CheckTx runs.
import type { OrderedMap } from "immutable";

export type TxCache = OrderedMap<string, true>;

/** Adds or refreshes a hash; evicts the oldest when over capacity. A capacity of 0 keeps nothing. */
export function cachePush(cache: TxCache, hash: string, capacity: number): TxCache {
  if (capacity <= 0) return cache;
  let next = cache.has(hash) ? cache.delete(hash).set(hash, true) : cache.set(hash, true);
  while (next.size > capacity) {
    const oldest = next.keySeq().first();
    if (oldest === undefined) break;
    next = next.delete(oldest);
  }
  return next;
}

export function cacheRemove(cache: TxCache, hash: string): TxCache {
  return cache.delete(hash);
}
