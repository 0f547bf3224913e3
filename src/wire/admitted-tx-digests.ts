// The digests (sha256(tx) and its merkle leaf) of the txs admitted lately, found again by the
// tx's BYTES: a proposal from another validator arrives as parts, so its txs are fresh arrays
// decoded from them, never the objects our mempool hashed, and without this its data hash hashed
// every tx twice more (~5 µs a tx with the tree, ~30 ms for a 6,000-tx block on an idle core,
// twice that under load: most of a non-proposer's validation before its prevote).
//
// Safe because an entry answers only for equal bytes: the key is a cheap 32-bit hash of the bytes
// (FNV-1a) that only picks a candidate, and the candidate's own tx is then compared byte for byte
// with the asked tx. Digests made from other bytes are never taken, whatever a peer sends: a
// crafted collision of the 32-bit key can at most replace an entry, and the tx it displaced is then
// hashed afresh (a miss costs what no memo cost). The memo of a pure function: it changes the cost
// of a data hash, never its answer.
//
// Bounded by count and by the txs' bytes, the oldest admission first: a block holds txs admitted
// in the last second or two, so what is older only keeps committed txs alive.
//
// Switched off (and emptied) while no other validator can propose: on a chain whose only validator
// is this node every block is our own, hashed from our pool's own digest objects, and the memo
// would only hold up to its byte bound of txs for nothing (~17 MB at 10,000 tx/s).

/** What is kept: digests that name the tx they were made from (hashes.ts's TxDigests). */
export interface DigestsOfTx {
  readonly tx: Uint8Array;
}

/** Entries kept at most: several blocks' worth of admissions at the bench's ~6,000 tx/s. */
export const ADMITTED_DIGESTS_KEPT = 32_768;
/** Their txs' bytes at most, so large txs do not stay alive for the count's sake. */
export const ADMITTED_DIGESTS_BYTES = 32 * 1024 * 1024;

/** FNV-1a over every byte, as a signed 32-bit integer (a Map key, never trusted alone). */
export function bytesKey(bytes: Uint8Array): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  const n = a.length;
  if (n !== b.length) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Slots a key's entry may be from its home slot at most. A key is found only within that run, so
 * a cluster of crafted keys (FNV-1a is easy to grind) costs every operation at most this many
 * probes; a remember that finds no room in its run keeps nothing (a miss later, as if evicted).
 */
export const ADMITTED_DIGESTS_MAX_PROBES = 32;

/** A key's home slot: FNV's low bits mix poorly, so MurmurHash3's fmix32 first. */
function homeOf(key: number, mask: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
}

// The index is a table of integers, not a Map<number, digests>: each remember set one Map entry
// and evicted another, in a Map of tens of thousands that V8 rehashed into a new table on the heap
// every few thousand edits; remember was ~3.5 µs per peer tx on a loaded validator (issue 13's
// profile), most of it those Map edits. Here an entry is its ring position in an Int32Array slot
// (open addressing, linear probing, backward-shift deletion), and nothing per entry is allocated.

/** A bounded first-in first-out memo of digests by their tx's bytes. */
export class AdmittedTxDigests<TxDigests extends DigestsOfTx = DigestsOfTx> {
  // A queue in a ring: the oldest entry at #head, #count of them, each with its tx's key.
  readonly #ring: (TxDigests | undefined)[];
  readonly #ringKeys: Int32Array;
  // Ring position + 1 of the entry answering for a key (0: an empty slot); one per key at most.
  readonly #slots: Int32Array;
  readonly #mask: number;
  #head = 0;
  #count = 0;
  #bytes = 0;
  #size = 0;
  #keeping = true;

  constructor(
    readonly maxEntries = ADMITTED_DIGESTS_KEPT,
    readonly maxBytes = ADMITTED_DIGESTS_BYTES,
  ) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`admitted digests: maxEntries must be a positive integer, got ${maxEntries}`);
    this.#ring = new Array<TxDigests | undefined>(maxEntries).fill(undefined);
    this.#ringKeys = new Int32Array(maxEntries);
    // At most half full, so runs stay short.
    let capacity = 16;
    while (capacity < 2 * maxEntries) capacity *= 2;
    this.#slots = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }

  /** Entries answering now (an entry displaced by a key collision is not counted). */
  get size(): number {
    return this.#size;
  }

  /** Whether remember keeps what it is given (on until told otherwise). */
  get keeping(): boolean {
    return this.#keeping;
  }

  /** Turns keeping on or off; off also lets go of every entry, so their txs can be collected. */
  keep(on: boolean): void {
    this.#keeping = on;
    if (!on) while (this.#count > 0) this.#evictOldest();
  }

  /**
   * Remembers `digests` for its own tx's bytes (a tx over maxBytes, or any while off, is not kept).
   * `key`: bytesKey(digests.tx) when the caller has just computed it (a peer's tx is keyed once
   * for both memos); a wrong one only files the entry where no lookup of these bytes finds it.
   */
  remember(digests: TxDigests, key = bytesKey(digests.tx)): void {
    if (!this.#keeping) return;
    const length = digests.tx.length;
    if (length > this.maxBytes) return;
    while (this.#count === this.maxEntries || this.#bytes + length > this.maxBytes) this.#evictOldest();
    const at = (this.#head + this.#count) % this.maxEntries;
    this.#ring[at] = digests;
    this.#ringKeys[at] = key;
    this.#count++;
    this.#bytes += length;
    const slot = this.#slotOf(key);
    if (slot < 0) return;
    if (this.#slots[slot] === 0) this.#size++;
    this.#slots[slot] = at + 1;
  }

  /**
   * The digests made from exactly these bytes, if they are still kept. `key`: bytesKey(tx) when
   * the caller has it (a wrong one only misses).
   */
  of(tx: Uint8Array, key = bytesKey(tx)): TxDigests | undefined {
    const slot = this.#slotOf(key);
    const p = slot < 0 ? 0 : this.#slots[slot]!;
    if (p === 0) return undefined;
    const known = this.#ring[p - 1]!;
    return sameBytes(known.tx, tx) ? known : undefined;
  }

  /** The slot holding `key`, or the empty slot where it would go; -1 when its run is full. */
  #slotOf(key: number): number {
    const slots = this.#slots;
    const keys = this.#ringKeys;
    const mask = this.#mask;
    let slot = homeOf(key, mask);
    for (let probes = 0; probes < ADMITTED_DIGESTS_MAX_PROBES; probes++) {
      const p = slots[slot]!;
      if (p === 0 || keys[p - 1] === key) return slot;
      slot = (slot + 1) & mask;
    }
    return -1;
  }

  #evictOldest(): void {
    const at = this.#head;
    const old = this.#ring[at]!;
    const slot = this.#slotOf(this.#ringKeys[at]!);
    // Not when a later entry of the same key displaced it (that one answers now).
    if (slot >= 0 && this.#slots[slot] === at + 1) this.#vacate(slot);
    this.#ring[at] = undefined;
    this.#head = (at + 1) % this.maxEntries;
    this.#count--;
    this.#bytes -= old.tx.length;
  }

  /**
   * Empties `slot` and moves later entries of its run back into the gap where their home allows,
   * so every entry stays between its home and the first empty slot after it (no tombstones), and
   * never moves farther from its home than it was. An entry MAX_PROBES or more past the gap is
   * nearer its home than that and never moves, so the walk ends there: a long run costs no more.
   */
  #vacate(slot: number): void {
    const slots = this.#slots;
    const keys = this.#ringKeys;
    const mask = this.#mask;
    let gap = slot;
    for (
      let next = (slot + 1) & mask;
      ((next - gap) & mask) < ADMITTED_DIGESTS_MAX_PROBES;
      next = (next + 1) & mask
    ) {
      const p = slots[next]!;
      if (p === 0) break;
      const home = homeOf(keys[p - 1]!, mask);
      // The entry may fill the gap when its home is not in (gap, next], cyclically.
      if (((next - home) & mask) >= ((next - gap) & mask)) {
        slots[gap] = p;
        gap = next;
      }
    }
    slots[gap] = 0;
    this.#size--;
  }
}
