// A bounded least-recently-used cache of node:crypto public KeyObjects, keyed by the raw key bytes.
// Building a KeyObject costs about as much as a tenth of a verify (JWK import) and a whole verify
// through DER, so a node keeps one per validator; the bound keeps peers sending fresh keys from
// growing memory without limit.
import type { KeyObject } from "node:crypto";

export const DEFAULT_KEY_CACHE_SIZE = 10_000;

export class KeyObjectCache {
  // Map keeps insertion order: the first entry is the least recently used one.
  private readonly entries = new Map<string, KeyObject | null>();

  constructor(
    readonly maxSize: number,
    private readonly build: (publicKey: Uint8Array) => KeyObject | null,
  ) {
    if (!Number.isSafeInteger(maxSize) || maxSize < 1) {
      throw new RangeError(`key cache size must be a positive integer, got ${maxSize}`);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  /** The KeyObject of a public key, or null when node:crypto refuses the key bytes. */
  get(publicKey: Uint8Array): KeyObject | null {
    // latin1 maps each byte to one UTF-16 unit: a cheap exact key, shorter than hex.
    const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString("latin1");
    const found = this.entries.get(id);
    if (found !== undefined) {
      // Move to the most recently used end.
      this.entries.delete(id);
      this.entries.set(id, found);
      return found;
    }
    const built = this.build(publicKey);
    if (this.entries.size >= this.maxSize) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(id, built);
    return built;
  }

  clear(): void {
    this.entries.clear();
  }
}
