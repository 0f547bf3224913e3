// A merkle root built leaf by leaf, for leaves that arrive over time (a block's txs as its parts
// come in): every inner node is hashed as soon as both its children are known, so when the last
// leaf arrives only O(log n) hashes are left. The tree's shape (v0.34's: split at the largest
// power of two below n) makes every aligned run of 2^k leaves inside [0, n) a node of the final
// tree, so the nodes kept are the "peaks" of the leaves so far, one per set bit of their count,
// largest first; the root folds them from the right. The answer equals merkleRootOfLeafHashes of
// the same leaves, byte for byte (test/property/part-set-data-hash.test.ts).
import { emptyHash, innerHash } from "../crypto/merkle.js";

export class IncrementalMerkleRoot {
  /** The peaks, largest (leftmost) first; peakSizes[i] leaves under peaks[i]. */
  readonly #peaks: Uint8Array[] = [];
  readonly #peakSizes: number[] = [];
  #count = 0;

  /** Leaves added so far. */
  get count(): number {
    return this.#count;
  }

  /** Adds the next leaf's hash (leafHash of the item, as merkleRootOfLeafHashes takes). */
  push(leaf: Uint8Array): void {
    let node = leaf;
    let size = 1;
    const peaks = this.#peaks;
    const sizes = this.#peakSizes;
    while (sizes.length > 0 && sizes[sizes.length - 1] === size) {
      sizes.pop();
      node = innerHash(peaks.pop()!, node);
      size *= 2;
    }
    peaks.push(node);
    sizes.push(size);
    this.#count++;
  }

  /** The root over the leaves pushed so far (the empty tree's hash for none). */
  root(): Uint8Array {
    const peaks = this.#peaks;
    if (peaks.length === 0) return emptyHash();
    let node = peaks[peaks.length - 1]!;
    for (let i = peaks.length - 2; i >= 0; i--) node = innerHash(peaks[i]!, node);
    return node;
  }
}
