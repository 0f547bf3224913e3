// A Bloom filter of the tx index's home keys (the first TX_HOME_HASH_BYTES of a tx's hash), so a
// height's index asks LevelDB only for the homes that may exist. Every committed tx is looked up
// there to find whether it was indexed before at another height (event-indexer.ts), and for a new
// tx, nearly every one, that lookup finds nothing but still walks an index and a filter block of a
// table at every level; those tables are mmapped, and each page a lookup touches stays resident
// while the table is open (docs/storage.md "Memory"). The filter answers "absent" for most of them
// from memory.
//
// It only ever says "absent" of a key never added, so it may be stale the other way (a home
// deleted since stays "maybe"): the index then asks LevelDB, as it would without the filter. Its
// size is fixed when it is made, so it never grows with the index: as more keys go in, more of
// its bits are set and more lookups go through to LevelDB (falsePositiveRate: with 4 probes a key,
// 0.1 % of new txs at 20 bits a key, 1 % at 10, 8 % at 5), which is slower, not wrong.
import { TX_HOME_HASH_BYTES } from "./index-keys.js";

/** Bits set per key: with a filter of 8 bits per key or more, 4 keeps the false positives near their least. */
export const HOME_FILTER_PROBES = 4;

/**
 * The false-positive rate from which the filter is crowded (onCrowded): past it, a growing share of
 * new txs' homes is read from tx_index.db again (about 21.5M keys in the default 16 MB), and with
 * the open tables bounded for a filtered index (db_tx_index_max_open_files) those reads can again
 * set a height's index time. An operator told of it can raise the filter's size.
 */
export const HOME_FILTER_CROWDED_RATE = 0.05;

/** Keys at which a filter of `bits` bits reaches the false-positive rate `rate` (the inverse of falsePositiveRate). */
export function homeFilterKeysAtRate(bits: number, rate: number): number {
  return Math.ceil((-bits / HOME_FILTER_PROBES) * Math.log(1 - rate ** (1 / HOME_FILTER_PROBES)));
}

export class HomeFilter {
  readonly #bits: Uint8Array;
  readonly #size: number;
  #added = 0;
  /** The count of keys added at which it becomes crowded (HOME_FILTER_CROWDED_RATE). */
  readonly #crowdedAt: number;
  readonly #onCrowded: (() => void) | undefined;
  /** Set once every home key the database held when the filter was made has been added. */
  #complete = false;

  /**
   * A filter of `bytes` bytes (at least 1); its bits are allocated lazily by the system, page by
   * page as they are set. `onCrowded` is called once, by the add that takes its false-positive rate
   * to HOME_FILTER_CROWDED_RATE.
   */
  constructor(bytes: number, onCrowded?: () => void) {
    if (!Number.isInteger(bytes) || bytes < 1)
      throw new RangeError(`home filter size ${bytes} is not a whole number of bytes ≥ 1`);
    this.#bits = new Uint8Array(bytes);
    this.#size = bytes * 8;
    this.#crowdedAt = homeFilterKeysAtRate(this.#size, HOME_FILTER_CROWDED_RATE);
    this.#onCrowded = onCrowded;
  }

  get bytes(): number {
    return this.#bits.length;
  }

  /** Keys added (with repeats): what the false-positive rate follows. */
  get added(): number {
    return this.#added;
  }

  /** Whether `mayHold`'s "absent" can be trusted: the database's keys of before were all added. */
  get complete(): boolean {
    return this.#complete;
  }

  markComplete(): void {
    this.#complete = true;
  }

  /** Adds the home key of `hash` (a tx hash, or a home key's hash bytes: the first TX_HOME_HASH_BYTES count). */
  add(hash: Uint8Array): void {
    const h1 = word(hash, 0);
    const h2 = (word(hash, 4) | 1) >>> 0;
    for (let i = 0; i < HOME_FILTER_PROBES; i++) {
      const bit = (h1 + i * h2) % this.#size;
      this.#bits[Math.floor(bit / 8)]! |= 1 << (bit % 8);
    }
    if (++this.#added === this.#crowdedAt) this.#onCrowded?.();
  }

  /**
   * False only when no home key with `hash`'s first bytes was ever added: then, once the filter
   * is complete, the database holds none either.
   */
  mayHold(hash: Uint8Array): boolean {
    const h1 = word(hash, 0);
    const h2 = (word(hash, 4) | 1) >>> 0;
    for (let i = 0; i < HOME_FILTER_PROBES; i++) {
      const bit = (h1 + i * h2) % this.#size;
      if ((this.#bits[Math.floor(bit / 8)]! & (1 << (bit % 8))) === 0) return false;
    }
    return true;
  }

  /** The expected share of absent keys it answers "maybe" for, at the keys added so far. */
  falsePositiveRate(): number {
    return (1 - Math.exp((-HOME_FILTER_PROBES * this.#added) / this.#size)) ** HOME_FILTER_PROBES;
  }
}

/** Bytes `at`..`at + 3` of a hash as an unsigned 32-bit number (the hash is uniform: any 4 bytes do). */
function word(hash: Uint8Array, at: number): number {
  if (hash.length < TX_HOME_HASH_BYTES)
    throw new RangeError(`a home filter key needs ${TX_HOME_HASH_BYTES} bytes of hash, got ${hash.length}`);
  return (hash[at]! | (hash[at + 1]! << 8) | (hash[at + 2]! << 16) | (hash[at + 3]! << 24)) >>> 0;
}
