// A Bloom filter of the tx index's home keys (the first TX_HOME_HASH_BYTES of a tx's hash), so a
// height's index asks LevelDB only for the homes that may exist. Every committed tx is looked up
// there to find whether it was indexed before at another height (event-indexer.ts), and for a new
// tx, nearly every one, that lookup finds nothing but still walks an index and a filter block of a
// table at every level; those tables are mmapped, and each page a lookup touches stays resident
// while the table is open (docs/storage.md "Memory"). The filter answers "absent" for most of them
// from memory.
//
// It only ever says "absent" of a key never added, so it may be stale the other way (a home
// deleted since stays "maybe"): the index then asks LevelDB, as it would without the filter.
//
// It grows with its keys, up to a cap (db_tx_index_home_filter_mb), as a sequence of parts: keys go
// into the newest part, and once that part holds as many as keep its false positives at
// HOME_FILTER_PART_RATE the next part, twice its size, is made; a key is tested against every part.
// Why parts and not one filter rebuilt larger: a Bloom filter cannot be resized from its own bits,
// so a rebuild would read every home key back from tx_index.db, touching the mapped tables this
// filter exists to leave untouched, and for seconds at a few million keys. Parts cost a few bit
// reads more per lookup (about one per part for a key never added: most parts answer on the first
// probe) and leave a filter of 1–2× the bits its keys need, so a node that indexed 1M txs holds
// ~4 MB, not the cap (the cap's whole 16 MB were resident after any load, docs/storage.md
// "Twenty-seventh pass"). The false positives of the parts add up: ≤ HOME_FILTER_PART_RATE × the
// parts (6 with 16 MB) while it grows. At the cap the last part takes every further key, its rate
// rises as a single fixed filter's would (0.1 % of new txs at 4M keys with 16 MB, 1 % at 7M, 5 %
// at 14M), and onCrowded says when the whole filter's rate reaches HOME_FILTER_CROWDED_RATE.
import { TX_HOME_HASH_BYTES } from "./index-keys.js";

/** Bits set per key: with a filter of 8 bits per key or more, 4 keeps the false positives near their least. */
export const HOME_FILTER_PROBES = 4;

/**
 * The false-positive rate from which the filter is crowded (onCrowded): past it, a growing share of
 * new txs' homes is read from tx_index.db again (about 14M keys with the default 16 MB), and with
 * the open tables bounded for a filtered index (db_tx_index_max_open_files) those reads can again
 * set a height's index time. An operator told of it can raise the filter's cap.
 */
export const HOME_FILTER_CROWDED_RATE = 0.05;

/**
 * A part's false-positive rate at which the next part is made (20.4 bits a key): a new tx costs a
 * LevelDB read at most this often per part, ~0.6 % with the 6 parts of the default cap, against
 * 0.1 % for a fixed 16 MB at 6M keys, for a filter that holds what its keys need, not its cap.
 */
export const HOME_FILTER_PART_RATE = 0.001;

/** The first part's size (~100k keys at HOME_FILTER_PART_RATE); a cap below it is the only part. */
export const HOME_FILTER_FIRST_PART_BYTES = 256 * 1024;

/** Keys at which a filter of `bits` bits reaches the false-positive rate `rate` (the inverse of partRate). */
export function homeFilterKeysAtRate(bits: number, rate: number): number {
  return Math.ceil((-bits / HOME_FILTER_PROBES) * Math.log(1 - rate ** (1 / HOME_FILTER_PROBES)));
}

/** The expected false-positive rate of one filter of `bits` bits holding `keys` keys. */
function partRate(bits: number, keys: number): number {
  return (1 - Math.exp((-HOME_FILTER_PROBES * keys) / bits)) ** HOME_FILTER_PROBES;
}

/**
 * The parts' sizes in bytes for a cap of `capBytes`: from HOME_FILTER_FIRST_PART_BYTES, each twice
 * the one before, and the last takes what is left of the cap once another doubling would not fit
 * (so the last is never smaller than the one before it, and the sizes add up to the cap).
 */
export function homeFilterPartSizes(capBytes: number): number[] {
  const sizes: number[] = [];
  let total = 0;
  let size = Math.min(HOME_FILTER_FIRST_PART_BYTES, capBytes);
  for (;;) {
    const rest = capBytes - total;
    if (size * 3 > rest) {
      sizes.push(rest);
      return sizes;
    }
    sizes.push(size);
    total += size;
    size *= 2;
  }
}

interface Part {
  readonly bits: Uint8Array;
  /** Its size in bits. */
  readonly size: number;
  added: number;
}

export class HomeFilter {
  readonly #capBytes: number;
  readonly #sizes: readonly number[];
  readonly #parts: Part[] = [];
  /** The newest part, which takes the keys added. */
  #last: Part;
  /** Keys the newest part takes before the next is made, or before the filter is crowded (the last). */
  #lastFullAt = 0;
  #added = 0;
  readonly #onCrowded: (() => void) | undefined;
  /** Set once every home key the database held when the filter was made has been added. */
  #complete = false;

  /**
   * A filter that grows to at most `capBytes` bytes (at least 1), its first part made now. Each
   * part's bits are allocated when it is made; the system takes their pages as bits are set.
   * `onCrowded` is called once, by the add that takes its false-positive rate to
   * HOME_FILTER_CROWDED_RATE (only at the cap: below it a new part comes first).
   */
  constructor(capBytes: number, onCrowded?: () => void) {
    if (!Number.isInteger(capBytes) || capBytes < 1)
      throw new RangeError(`home filter size ${capBytes} is not a whole number of bytes ≥ 1`);
    this.#capBytes = capBytes;
    this.#sizes = homeFilterPartSizes(capBytes);
    this.#onCrowded = onCrowded;
    this.#last = this.#addPart();
  }

  /** Bytes allocated: its parts so far. */
  get bytes(): number {
    let bytes = 0;
    for (const part of this.#parts) bytes += part.bits.length;
    return bytes;
  }

  /** The most it grows to (db_tx_index_home_filter_mb). */
  get capBytes(): number {
    return this.#capBytes;
  }

  /** Its parts so far (a key is tested against each). */
  get parts(): number {
    return this.#parts.length;
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
    const part = this.#last;
    for (let i = 0; i < HOME_FILTER_PROBES; i++) {
      const bit = (h1 + i * h2) % part.size;
      part.bits[bit >>> 3]! |= 1 << (bit & 7);
    }
    this.#added++;
    if (++part.added !== this.#lastFullAt) return;
    if (this.#parts.length < this.#sizes.length) this.#last = this.#addPart();
    else this.#onCrowded?.();
  }

  /**
   * False only when no home key with `hash`'s first bytes was ever added: then, once the filter
   * is complete, the database holds none either.
   */
  mayHold(hash: Uint8Array): boolean {
    const h1 = word(hash, 0);
    const h2 = (word(hash, 4) | 1) >>> 0;
    const parts = this.#parts;
    nextPart: for (let p = 0; p < parts.length; p++) {
      const { bits, size } = parts[p]!;
      for (let i = 0; i < HOME_FILTER_PROBES; i++) {
        const bit = (h1 + i * h2) % size;
        if ((bits[bit >>> 3]! & (1 << (bit & 7))) === 0) continue nextPart;
      }
      return true;
    }
    return false;
  }

  /** The expected share of absent keys it answers "maybe" for, at the keys added so far: any part's. */
  falsePositiveRate(): number {
    let none = 1;
    for (const part of this.#parts) none *= 1 - partRate(part.size, part.added);
    return 1 - none;
  }

  /**
   * Makes the next part and sets when it is full: at HOME_FILTER_PART_RATE, or, for the last one
   * the cap allows, when the whole filter reaches HOME_FILTER_CROWDED_RATE (the rates of the parts
   * before it are those they were filled to).
   */
  #addPart(): Part {
    const bytes = this.#sizes[this.#parts.length]!;
    const part: Part = { bits: new Uint8Array(bytes), size: bytes * 8, added: 0 };
    this.#parts.push(part);
    if (this.#parts.length < this.#sizes.length) {
      this.#lastFullAt = homeFilterKeysAtRate(part.size, HOME_FILTER_PART_RATE);
    } else {
      let none = 1;
      for (const before of this.#parts) if (before !== part) none *= 1 - partRate(before.size, before.added);
      // The parts before it hold ≤ 11 × HOME_FILTER_PART_RATE between them, far under the crowded rate.
      const rest = Math.max(1 - (1 - HOME_FILTER_CROWDED_RATE) / none, HOME_FILTER_PART_RATE);
      this.#lastFullAt = homeFilterKeysAtRate(part.size, rest);
    }
    return part;
  }
}

/** Bytes `at`..`at + 3` of a hash as an unsigned 32-bit number (the hash is uniform: any 4 bytes do). */
function word(hash: Uint8Array, at: number): number {
  if (hash.length < TX_HOME_HASH_BYTES)
    throw new RangeError(`a home filter key needs ${TX_HOME_HASH_BYTES} bytes of hash, got ${hash.length}`);
  return (hash[at]! | (hash[at + 1]! << 8) | (hash[at + 2]! << 16) | (hash[at + 3]! << 24)) >>> 0;
}
