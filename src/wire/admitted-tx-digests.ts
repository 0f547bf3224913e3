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

/** A bounded first-in first-out memo of digests by their tx's bytes. */
export class AdmittedTxDigests<TxDigests extends DigestsOfTx = DigestsOfTx> {
  readonly #byKey = new Map<number, TxDigests>();
  // A queue in a ring: the oldest entry at #head, #count of them.
  readonly #ring: (TxDigests | undefined)[];
  readonly #ringKeys: Int32Array;
  #head = 0;
  #count = 0;
  #bytes = 0;
  #keeping = true;

  constructor(
    readonly maxEntries = ADMITTED_DIGESTS_KEPT,
    readonly maxBytes = ADMITTED_DIGESTS_BYTES,
  ) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`admitted digests: maxEntries must be a positive integer, got ${maxEntries}`);
    this.#ring = new Array<TxDigests | undefined>(maxEntries).fill(undefined);
    this.#ringKeys = new Int32Array(maxEntries);
  }

  /** Entries answering now (an entry displaced by a key collision is not counted). */
  get size(): number {
    return this.#byKey.size;
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

  /** Remembers `digests` for its own tx's bytes (a tx over maxBytes, or any while off, is not kept). */
  remember(digests: TxDigests): void {
    if (!this.#keeping) return;
    const length = digests.tx.length;
    if (length > this.maxBytes) return;
    while (this.#count === this.maxEntries || this.#bytes + length > this.maxBytes) this.#evictOldest();
    const key = bytesKey(digests.tx);
    const at = (this.#head + this.#count) % this.maxEntries;
    this.#ring[at] = digests;
    this.#ringKeys[at] = key;
    this.#count++;
    this.#bytes += length;
    this.#byKey.set(key, digests);
  }

  /** The digests made from exactly these bytes, if they are still kept. */
  of(tx: Uint8Array): TxDigests | undefined {
    const known = this.#byKey.get(bytesKey(tx));
    return known !== undefined && sameBytes(known.tx, tx) ? known : undefined;
  }

  #evictOldest(): void {
    const at = this.#head;
    const old = this.#ring[at]!;
    const key = this.#ringKeys[at]!;
    if (this.#byKey.get(key) === old) this.#byKey.delete(key);
    this.#ring[at] = undefined;
    this.#head = (at + 1) % this.maxEntries;
    this.#count--;
    this.#bytes -= old.tx.length;
  }
}
