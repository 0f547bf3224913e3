// A height's txs grouped by the key of their homes (the first TX_HOME_HASH_BYTES of the hash, as
// index-keys.ts keys them): one tx a group, but for a prefix collision or the same tx twice.
// Found through a number made of the hash's first 30 bits, which V8 keeps as a small integer and
// hashes without allocating, the full prefix compared within: a Map keyed by the prefix as a latin1
// string made a Buffer and a string for every tx of every height.
import { TX_HOME_HASH_BYTES } from "./index-keys.js";

export class HomeGroups {
  /** The groups in the order their first tx came (tx indexes, each group's in block order). */
  readonly groups: number[][] = [];
  /** For each group, the tx whose hash started it (its prefix is the group's). */
  readonly #leaders: number[] = [];
  /** For each group, the next group with the same 30-bit number, -1 when none. */
  readonly #next: number[] = [];
  readonly #firstByNumber = new Map<number, number>();

  constructor(private readonly hashes: readonly Uint8Array[]) {}

  /** The group of the txs whose hash starts as `hashes[index]`'s does (a new, empty one when none). */
  groupOf(index: number): number[] {
    const hash = this.hashes[index]!;
    const number = (hash[0]! << 22) | (hash[1]! << 14) | (hash[2]! << 6) | (hash[3]! >>> 2);
    const first = this.#firstByNumber.get(number) ?? -1;
    for (let g = first; g >= 0; g = this.#next[g]!) {
      if (samePrefix(this.hashes[this.#leaders[g]!]!, hash)) return this.groups[g]!;
    }
    const group: number[] = [];
    this.#firstByNumber.set(number, this.groups.length);
    this.#next.push(first);
    this.#leaders.push(index);
    this.groups.push(group);
    return group;
  }
}

function samePrefix(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 0; i < TX_HOME_HASH_BYTES; i++) if (a[i] !== b[i]) return false;
  return true;
}
