// Subscriptions indexed by an equality condition of their query (query/equality.ts), so that
// finding the subscriptions an event matches costs the number of indexed keys the event
// carries plus the candidates found, not the number of subscribers: 1,000 subscribers to
// `tm.event='Tx' AND app.key='k<N>'` are 1,000 buckets under app.key, and an event with
// app.key=k7 looks at one. A query without a text equality (only ranges, CONTAINS, EXISTS) is
// matched against every event, as before. Every candidate is still checked with the full
// query, so the index only skips what cannot match.

import { type CompiledQuery, type EventMap, narrowestEquality } from "../../query/index.js";

export interface Indexed {
  readonly compiled: CompiledQuery;
}

export class SubscriptionIndex<T extends Indexed> {
  /** key → value → the subscriptions indexed under `key = 'value'` */
  private readonly byKey = new Map<string, Map<string, Set<T>>>();
  private readonly unindexed = new Set<T>();
  private readonly placed = new Map<T, { key: string; value: string } | undefined>();

  get size(): number {
    return this.placed.size;
  }

  add(item: T): void {
    if (this.placed.has(item)) return;
    const equality = narrowestEquality(item.compiled.query);
    this.placed.set(item, equality);
    if (equality === undefined) {
      this.unindexed.add(item);
      return;
    }
    let values = this.byKey.get(equality.key);
    if (values === undefined) {
      values = new Map();
      this.byKey.set(equality.key, values);
    }
    let bucket = values.get(equality.value);
    if (bucket === undefined) {
      bucket = new Set();
      values.set(equality.value, bucket);
    }
    bucket.add(item);
  }

  delete(item: T): void {
    if (!this.placed.has(item)) return;
    const equality = this.placed.get(item);
    this.placed.delete(item);
    if (equality === undefined) {
      this.unindexed.delete(item);
      return;
    }
    const values = this.byKey.get(equality.key);
    const bucket = values?.get(equality.value);
    if (values === undefined || bucket === undefined) return;
    bucket.delete(item);
    if (bucket.size === 0) values.delete(equality.value);
    if (values.size === 0) this.byKey.delete(equality.key);
  }

  /**
   * Calls `visit` once for each subscription that could match the events (its indexed value
   * is among the event's values under that key, or it is not indexed), in no promised order.
   * The caller checks the full query.
   */
  forEachCandidate(events: EventMap, visit: (item: T) => void): void {
    for (const item of this.unindexed) visit(item);
    if (this.byKey.size === 0) return;
    // Indexed keys are few (tm.event, an app key or two, tx.hash): walk them, not the event's.
    for (const [key, values] of this.byKey) {
      if (!Object.hasOwn(events, key)) continue;
      const eventValues = events[key] as readonly string[];
      if (eventValues.length === 1) {
        const bucket = values.get(eventValues[0] as string);
        if (bucket !== undefined) for (const item of bucket) visit(item);
        continue;
      }
      // The same value twice under a key must not visit its bucket twice.
      for (const value of new Set(eventValues)) {
        const bucket = values.get(value);
        if (bucket !== undefined) for (const item of bucket) visit(item);
      }
    }
  }
}
