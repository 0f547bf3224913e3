// A tx hash as a key of the gossip's persistent maps. immutable.js hashes a string key longer than
// 16 characters through a cache of the last 255 strings, so a 64-digit tx hash was hashed again
// (a loop over its 64 characters) at nearly every lookup: most of the gossip fold's time under
// load. A tx hash is already uniformly random, so its first 8 hex digits serve as the key's hash
// code, and equality still compares the whole hash: keys whose codes collide are told apart, and
// a peer that crafts such txs only lengthens one bucket.
export class TxKey {
  private readonly code: number;

  constructor(readonly hash: string) {
    // | 0: a 32-bit integer, as immutable.js takes hash codes; NaN (not hex) becomes 0, still correct
    this.code = Number.parseInt(hash.slice(0, 8), 16) | 0;
  }

  hashCode(): number {
    return this.code;
  }

  equals(other: unknown): boolean {
    return other instanceof TxKey && other.hash === this.hash;
  }
}
