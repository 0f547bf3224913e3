// Each key's last position in an entry log (entry-log.ts), as an open-addressed table of integers:
// the position and a 32-bit hash of its key per slot, in two Int32Arrays, the key itself read back
// from the log's own keys array only when the stored hash matches.
//
// Why not a Map<string, number>: the mempool's keys are 64-digit hex tx hashes, tens of thousands
// live at once, looked up several times per tx (cache push, running check, pool add, commit). In a
// Map each lookup walked V8's hash buckets and entries (a cache miss each) and each growth rehashed
// and reallocated the table on the JS heap, which the garbage collector then marked again and
// again (`appendKey`/`lastEntry` were 5 % of a loaded validator's CPU, issue 13). Here a miss is
// settled by comparing integers in two flat arrays the collector never scans, and a table is sized
// once per rebuilt log.
//
// The hash reads at most 16 characters (the first and last 8) of a key, so it costs the same
// for any length; a 64-digit digest's characters are random, and shorter keys (tests') are hashed
// whole. Probing is double hashing: a key's step comes from other bits of its hash than its first
// slot, so keys that only share a first slot do not share a probe sequence. Keys are tx hashes a
// peer cannot choose, only grind: to share a probe sequence two keys must agree on the full 32-bit
// hash, about 2^32 sha256 runs per crafted tx. Whatever collides, a lookup answers only for a key
// equal to the one asked (compared as strings), so collisions cost time, never a wrong answer.

/** Slots per key at most: a table is grown (doubled) past half full. */
const MAX_LOAD = 0.5;
const MIN_CAPACITY = 16;

/** A 32-bit hash of a key: FNV-1a over its first and last 8 characters (all of a short key). */
export function keyHash(key: string): number {
  const n = key.length;
  let h = 0x811c9dc5 ^ n;
  if (n <= 16) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  } else {
    for (let i = 0; i < 8; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
    for (let i = n - 8; i < n; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  }
  // FNV's low bits mix poorly: a final avalanche (MurmurHash3's fmix32) before they pick a slot.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** An odd step (every slot of a power-of-two table is visited) from the hash's upper bits. */
const stepOf = (h: number): number => ((h >>> 13) | (h << 19) | 1) >>> 0;

export class KeyPositions {
  /** Position + 1 of the key in each slot (0: empty). */
  #positions: Int32Array;
  /** keyHash of the key in each occupied slot. */
  #hashes: Int32Array;
  #mask: number;
  #size = 0;

  /** `keys`: the log's keys by position, which every stored position indexes. */
  constructor(
    private readonly keys: readonly string[],
    expected = 0,
  ) {
    let capacity = MIN_CAPACITY;
    while (capacity * MAX_LOAD < expected) capacity *= 2;
    this.#positions = new Int32Array(capacity);
    this.#hashes = new Int32Array(capacity);
    this.#mask = capacity - 1;
  }

  /** Distinct keys held. */
  get size(): number {
    return this.#size;
  }

  /** The position last set for `key`, or -1. */
  get(key: string): number {
    // An empty slot holds 0, so its position - 1 is the -1 of a key not held.
    return this.#positions[this.#slotOf(key, keyHash(key))]! - 1;
  }

  /** Records `at` as `key`'s position (the log's keys[at] is `key`). */
  set(key: string, at: number): void {
    const h = keyHash(key);
    const slot = this.#slotOf(key, h);
    const fresh = this.#positions[slot] === 0;
    this.#positions[slot] = at + 1;
    if (!fresh) return;
    this.#hashes[slot] = h;
    if (++this.#size > (this.#mask + 1) * MAX_LOAD) this.#grow();
  }

  /** The slot holding `key` (hash `h`), or the empty slot where its probe sequence ends. */
  #slotOf(key: string, h: number): number {
    const positions = this.#positions;
    const hashes = this.#hashes;
    const mask = this.#mask;
    const step = stepOf(h);
    for (let slot = h & mask; ; slot = (slot + step) & mask) {
      const p = positions[slot]!;
      if (p === 0 || (hashes[slot] === h && this.keys[p - 1] === key)) return slot;
    }
  }

  /** Doubles the table, placing every key again from its stored hash (no key is read). */
  #grow(): void {
    const oldPositions = this.#positions;
    const oldHashes = this.#hashes;
    const capacity = 2 * oldPositions.length;
    const positions = new Int32Array(capacity);
    const hashes = new Int32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < oldPositions.length; i++) {
      const p = oldPositions[i]!;
      if (p === 0) continue;
      const h = oldHashes[i]!;
      const step = stepOf(h);
      let slot = h & mask;
      while (positions[slot] !== 0) slot = (slot + step) & mask;
      positions[slot] = p;
      hashes[slot] = h;
    }
    this.#positions = positions;
    this.#hashes = hashes;
    this.#mask = mask;
  }
}
