// A height's repeated (key, value) pairs gathered into list chunks (index-keys.ts,
// PREFIX_TX_EVENT_LIST) while the indexer walks its txs, and the removal of occurrences from
// stored chunks (a tx moved to a later height, a height rolled back).
//
// Why candidates compared by bytes, not a count of every pair first: counting needs a map keyed by
// each value (a string and a map entry per attribute per tx, most of them unique, like the
// kvstore's `app.key`), which costs about what a list saves. Each composite key keeps a few
// candidate values instead; a pair's occurrence joins its candidate, and a candidate still under
// the threshold gives its place to a new value by being written as keys of their own. So a pair
// can be written in both forms within one height (it was evicted, then came back): readers merge
// the forms, as they must for an index written before lists.
import type { BinaryLevel, LevelBatch } from "../level-database.js";
import {
  checkEventList,
  EVENT_LIST_ITEM_BYTES,
  EVENT_LIST_MAX_SEQ,
  EVENT_LIST_SPAN,
  eventListKey,
  eventListOffset,
  eventListSeq,
} from "./index-keys.js";

/** A composite key (`type.attribute`) of the height, with the candidates of its values. */
export interface Composite {
  bytes: Uint8Array;
  /** False for a key the height does not keep (past the cache of known keys): never listed. */
  listable: boolean;
  candidates?: Candidate[];
  /** Where the search for a candidate to evict starts (the oldest first). */
  ring?: number;
  /** Candidates evicted in this height: past EVICTIONS_KEPT, new values are not taken. */
  evictions?: number;
}

interface Candidate {
  value: Uint8Array;
  /** tx index, seq; tx index, seq; … in the order met (tx index, then seq, ascending). */
  occurrences: number[];
  lastIndex: number;
  /** Occurrences of the pair in the tx at lastIndex. */
  run: number;
}

/** Where the lists' writes go: a pair's occurrence as a key of its own, or one list chunk. */
export interface EventListSink {
  single(composite: Uint8Array, value: Uint8Array, txIndex: number, seq: number): void;
  list(composite: Uint8Array, value: Uint8Array, chunk: number, items: Uint8Array): void;
}

export class HeightEventLists {
  /** Candidate values kept per composite key. */
  static readonly CANDIDATES_PER_KEY = 4;
  /**
   * Occurrences of one pair in one tx a list takes; more keep keys of their own, so a chunk holds at
   * most EVENT_LIST_SPAN × 16 occurrences (64 KiB) whatever a tx's events repeat.
   */
  static readonly MAX_PER_TX = 16;
  /**
   * Evictions after which a composite key takes no new candidate in the height: a key whose values
   * are mostly unique (the kvstore's `app.key`) would otherwise make a candidate, and garbage, per tx.
   */
  static readonly EVICTIONS_KEPT = 32;
  readonly #composites: Composite[] = [];
  readonly #dropped = new Set<number>();

  /**
   * `threshold`: occurrences within the height for a pair to be listed (Infinity: none, the form
   * before lists). `take` gives `size` bytes that stay valid until the sink's `list` returns.
   */
  constructor(
    private readonly threshold: number,
    private readonly sink: EventListSink,
    private readonly take: (size: number) => Uint8Array,
  ) {
    HeightEventLists.checkThreshold(threshold);
  }

  static checkThreshold(threshold: number): void {
    if (!(threshold === Number.POSITIVE_INFINITY || (Number.isInteger(threshold) && threshold >= 1)))
      throw new RangeError(`an event list threshold of ${threshold} (a whole number ≥ 1, or Infinity)`);
  }

  /**
   * Takes a pair's occurrence into its candidate; false when it is not taken (the caller writes it
   * as a key of its own now). Called in the height's order: tx index, then seq, ascending.
   */
  add(composite: Composite, value: Uint8Array, txIndex: number, seq: number): boolean {
    if (!composite.listable || seq > EVENT_LIST_MAX_SEQ || this.threshold === Number.POSITIVE_INFINITY)
      return false;
    let candidates = composite.candidates;
    if (candidates === undefined) {
      candidates = [];
      composite.candidates = candidates;
      composite.ring = 0;
      composite.evictions = 0;
      this.#composites.push(composite);
    }
    for (let c = 0; c < candidates.length; c++) {
      const candidate = candidates[c]!;
      if (!sameBytes(candidate.value, value)) continue;
      if (candidate.lastIndex === txIndex) {
        if (candidate.run >= HeightEventLists.MAX_PER_TX) return false;
        candidate.run++;
      } else {
        candidate.lastIndex = txIndex;
        candidate.run = 1;
      }
      candidate.occurrences.push(txIndex, seq);
      return true;
    }
    if (candidates.length < HeightEventLists.CANDIDATES_PER_KEY) {
      candidates.push({ value, occurrences: [txIndex, seq], lastIndex: txIndex, run: 1 });
      return true;
    }
    if (composite.evictions! >= HeightEventLists.EVICTIONS_KEPT) return false;
    // Full: the oldest candidate still under the threshold is written out and gives its place.
    for (let n = 0; n < candidates.length; n++) {
      const at = (composite.ring! + n) % candidates.length;
      const candidate = candidates[at]!;
      if (candidate.occurrences.length / 2 >= this.threshold) continue;
      this.#writeSingles(composite.bytes, candidate);
      candidates[at] = { value, occurrences: [txIndex, seq], lastIndex: txIndex, run: 1 };
      composite.ring = (at + 1) % candidates.length;
      composite.evictions!++;
      return true;
    }
    return false;
  }

  /** The tx at `txIndex` is not indexed after all (the same tx again later in the block). */
  drop(txIndex: number): void {
    this.#dropped.add(txIndex);
  }

  /** Writes every candidate: a list when it reached the threshold, keys of their own otherwise. */
  finish(): void {
    for (const composite of this.#composites) {
      for (const candidate of composite.candidates!) {
        const kept = this.#kept(candidate.occurrences);
        if (kept.length / 2 < this.threshold) this.#writeSingles(composite.bytes, candidate, kept);
        else this.#writeLists(composite.bytes, candidate.value, kept);
      }
    }
  }

  #kept(occurrences: number[]): number[] {
    if (this.#dropped.size === 0) return occurrences;
    const kept: number[] = [];
    for (let i = 0; i < occurrences.length; i += 2) {
      if (!this.#dropped.has(occurrences[i]!)) kept.push(occurrences[i]!, occurrences[i + 1]!);
    }
    return kept;
  }

  #writeSingles(composite: Uint8Array, candidate: Candidate, kept = this.#kept(candidate.occurrences)): void {
    for (let i = 0; i < kept.length; i += 2)
      this.sink.single(composite, candidate.value, kept[i]!, kept[i + 1]!);
  }

  #writeLists(composite: Uint8Array, value: Uint8Array, occurrences: number[]): void {
    let start = 0;
    while (start < occurrences.length) {
      const chunk = Math.floor(occurrences[start]! / EVENT_LIST_SPAN);
      let end = start;
      while (end < occurrences.length && Math.floor(occurrences[end]! / EVENT_LIST_SPAN) === chunk) end += 2;
      const items = this.take(((end - start) / 2) * EVENT_LIST_ITEM_BYTES);
      let at = 0;
      for (let i = start; i < end; i += 2) {
        const offset = occurrences[i]! - chunk * EVENT_LIST_SPAN;
        const seq = occurrences[i + 1]!;
        items[at] = offset >>> 8;
        items[at + 1] = offset & 0xff;
        items[at + 2] = seq >>> 8;
        items[at + 3] = seq & 0xff;
        at += EVENT_LIST_ITEM_BYTES;
      }
      this.sink.list(composite, value, chunk, items);
      start = end;
    }
  }
}

/**
 * Occurrences to take out of stored list chunks, gathered by chunk and applied in one read: the
 * chunk is written back without them, or deleted when none is left. An occurrence no chunk holds
 * (it had a key of its own, or the index was written before lists) changes nothing.
 */
export class EventListRemovals {
  readonly #chunks = new Map<string, { key: Uint8Array; gone: Set<number> }>();

  add(composite: Uint8Array, value: Uint8Array, height: bigint, txIndex: number, seq: number): void {
    if (seq > EVENT_LIST_MAX_SEQ) return;
    const key = eventListKey(composite, value, height, txIndex);
    const name = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString("latin1");
    let chunk = this.#chunks.get(name);
    if (chunk === undefined) {
      chunk = { key, gone: new Set() };
      this.#chunks.set(name, chunk);
    }
    chunk.gone.add((txIndex % EVENT_LIST_SPAN) * 0x10000 + seq);
  }

  async apply(db: BinaryLevel, batch: LevelBatch): Promise<void> {
    if (this.#chunks.size === 0) return;
    const chunks = [...this.#chunks.values()];
    const stored = await db.getMany(chunks.map((c) => c.key));
    chunks.forEach(({ key, gone }, i) => {
      const list = stored[i];
      if (list === undefined) return;
      const where = `${db.location} event list ${Buffer.from(key).toString("hex")}`;
      checkEventList(list, where);
      const left: number[] = [];
      const items = list.length / EVENT_LIST_ITEM_BYTES;
      for (let item = 0; item < items; item++) {
        if (!gone.has(eventListOffset(list, item) * 0x10000 + eventListSeq(list, item))) left.push(item);
      }
      if (left.length === items) return;
      if (left.length === 0) {
        batch.del(key);
        return;
      }
      const kept = new Uint8Array(left.length * EVENT_LIST_ITEM_BYTES);
      for (let at = 0; at < left.length; at++) {
        const item = left[at]!;
        kept.set(
          list.subarray(item * EVENT_LIST_ITEM_BYTES, (item + 1) * EVENT_LIST_ITEM_BYTES),
          at * EVENT_LIST_ITEM_BYTES,
        );
      }
      batch.put(key, kept);
    });
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
