// RFC 6962 merkle trees as Tendermint v0.34 builds them (crypto/merkle): leaves hashed with a 0x00
// prefix, inner nodes with 0x01, split at the largest power of two strictly below the item count,
// and the empty tree hashing to sha256 of nothing. Data, commit, validator, results, evidence and
// part-set hashes all rest on this file.
import { createHash } from "node:crypto";
import type { Proof } from "../wire/generated/tendermint/crypto/proof.js";

const LEAF_PREFIX = Uint8Array.of(0);
const INNER_PREFIX = Uint8Array.of(1);

function view(digest: Buffer): Uint8Array {
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length);
}

/** sha256 of nothing: the root of an empty tree. */
export function emptyHash(): Uint8Array {
  return view(createHash("sha256").digest());
}

/** sha256(0x00 ‖ leaf). */
export function leafHash(leaf: Uint8Array): Uint8Array {
  return view(createHash("sha256").update(LEAF_PREFIX).update(leaf).digest());
}

/** sha256(0x01 ‖ left ‖ right). */
export function innerHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return view(createHash("sha256").update(INNER_PREFIX).update(left).update(right).digest());
}

/** Largest power of two strictly less than n (n ≥ 2). */
export function splitPoint(n: number): number {
  if (n < 2) throw new RangeError(`merkle split needs at least 2 items, got ${n}`);
  return 2 ** (31 - Math.clz32(n - 1));
}

function rootOf(items: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const n = to - from;
  if (n === 1) return leafHash(items[from]!);
  const k = splitPoint(n);
  return innerHash(rootOf(items, from, from + k), rootOf(items, from + k, to));
}

/** Merkle root of the items (each item is a leaf, hashed with the leaf prefix). */
export function merkleRoot(items: readonly Uint8Array[]): Uint8Array {
  if (items.length === 0) return emptyHash();
  return rootOf(items, 0, items.length);
}

export interface MerkleProofs {
  root: Uint8Array;
  /** proofs[i] proves items[i]; aunts run from the leaf's sibling up to a child of the root. */
  proofs: Proof[];
}

/** The root and one inclusion proof per item. */
export function merkleProofs(items: readonly Uint8Array[]): MerkleProofs {
  const total = BigInt(items.length);
  const leafHashes = items.map(leafHash);
  const aunts: Uint8Array[][] = items.map(() => []);
  // Children are finished before a parent pushes its sibling hashes, so each list grows from the
  // leaf's sibling upward.
  const build = (from: number, to: number): Uint8Array => {
    if (to - from === 1) return leafHashes[from]!;
    const mid = from + splitPoint(to - from);
    const left = build(from, mid);
    const right = build(mid, to);
    for (let i = from; i < mid; i++) aunts[i]!.push(right);
    for (let i = mid; i < to; i++) aunts[i]!.push(left);
    return innerHash(left, right);
  };
  const root = items.length === 0 ? emptyHash() : build(0, items.length);
  const proofs = items.map((_, i) => ({
    total,
    index: BigInt(i),
    leafHash: leafHashes[i]!,
    aunts: aunts[i]!,
  }));
  return { root, proofs };
}
