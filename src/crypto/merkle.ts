// RFC 6962 merkle trees as Tendermint v0.34 builds them (crypto/merkle): leaves hashed with a 0x00
// prefix, inner nodes with 0x01, split at the largest power of two strictly below the item count,
// and the empty tree hashing to sha256 of nothing. Data, commit, validator, results, evidence and
// part-set hashes all rest on this file.
//
// Leaves and inner nodes are hashed by hash.ts's sha256 over a reused scratch buffer
// (prefix ‖ input): one one-shot hash per node where the runtime has it, about half the cost of a
// createHash object per node, which is most of a 10,000-leaf tree's time. Results are fresh
// arrays either way.
import * as nodeCrypto from "node:crypto";
import type { Proof } from "../wire/generated/tendermint/crypto/proof.js";
import { sha256, sha256OfParts } from "./hash.js";

const HASH_BYTES = 32;

const LEAF_PREFIX = Uint8Array.of(0);
const INNER_PREFIX = Uint8Array.of(1);
const EMPTY = new Uint8Array(0);

/** Inputs up to this size are copied behind their prefix into the scratch buffer. */
const SCRATCH_SIZE = 4096;
const scratch = new Uint8Array(SCRATCH_SIZE + 1);

const EMPTY_HASH = sha256(EMPTY);

/**
 * sha256 of nothing: the root of an empty tree. A copy of one computed once (an empty height hashes
 * several empty trees: its data, evidence and results), fresh as every result here is.
 */
export function emptyHash(): Uint8Array {
  return EMPTY_HASH.slice();
}

/** sha256(0x00 ‖ leaf). */
export function leafHash(leaf: Uint8Array): Uint8Array {
  if (leaf.length <= SCRATCH_SIZE) {
    scratch[0] = 0;
    scratch.set(leaf, 1);
    return sha256(scratch.subarray(0, leaf.length + 1));
  }
  return sha256OfParts(LEAF_PREFIX, leaf);
}

// crypto.hash with a hex answer, decoded into the caller's array: for a 100-byte input ~0.7 µs
// against ~1.2 µs for the same hash answered as a Buffer, whose ArrayBuffer of its own (a native
// allocation the collector then tracks and frees) costs more than the hashing. For digests kept in
// a slab of many (a pool entry's tx hash and leaf), where no array per digest is wanted anyway.
type HexHash = (algorithm: string, data: Uint8Array, outputEncoding: "hex") => string;
const hexHash = (nodeCrypto as { hash?: HexHash }).hash;

const nibble = (c: number) => (c < 58 ? c - 48 : (c | 32) - 87);
const HEX_DIGITS = "0123456789abcdef";

/** Decodes 64 hex digits into out[at..at+32) one pair at a time: the fallback of hexInto. */
function hexInto64ByHand(hex: string, out: Uint8Array, at: number): void {
  for (let i = 0; i < HASH_BYTES; i++)
    out[at + i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
}

// Buffer's native hex decoder, called on the caller's array as it is (it takes any Uint8Array as
// its receiver): ~0.4 µs a hash with the decode against ~0.65 µs with hexInto64ByHand's loop, which
// cost more than the hashing itself, twice per admitted tx (its hash and its leaf). The method is
// not documented, so it is used only once it has decoded a known pair into a plain Uint8Array.
type HexWrite = (this: Uint8Array, hex: string, offset: number, length: number) => number;
const nativeHexWrite = (Buffer.prototype as unknown as { hexWrite?: HexWrite }).hexWrite;
const hexInto64: (hex: string, out: Uint8Array, at: number) => void = (() => {
  if (typeof nativeHexWrite !== "function") return hexInto64ByHand;
  try {
    const probe = new Uint8Array(HASH_BYTES + 2);
    const written = nativeHexWrite.call(probe, "0fA1".repeat(HASH_BYTES / 2), 1, HASH_BYTES);
    if (written !== HASH_BYTES || probe[0] !== 0 || probe[1] !== 0x0f || probe[2] !== 0xa1)
      return hexInto64ByHand;
    if (probe[HASH_BYTES] !== 0xa1 || probe[HASH_BYTES + 1] !== 0) return hexInto64ByHand;
  } catch {
    return hexInto64ByHand;
  }
  return (hex, out, at) => {
    nativeHexWrite.call(out, hex, at, HASH_BYTES);
  };
})();

/** Writes sha256(data) at out[at..at+32) and returns it as lower-case hex. */
export function sha256HexInto(data: Uint8Array, out: Uint8Array, at: number): string {
  if (hexHash === undefined) {
    const digest = sha256(data);
    out.set(digest, at);
    let hex = "";
    for (const b of digest) hex += HEX_DIGITS[b >> 4]! + HEX_DIGITS[b & 15]!;
    return hex;
  }
  const hex = hexHash("sha256", data, "hex");
  hexInto64(hex, out, at);
  return hex;
}

/** Writes sha256(0x00 ‖ hash) at out[at..at+32): leafHash of a 32-byte hash, into a slab. */
export function leafHashOfHashInto(hash: Uint8Array, out: Uint8Array, at: number): void {
  scratch[0] = 0;
  scratch.set(hash, 1);
  sha256HexInto(scratch.subarray(0, hash.length + 1), out, at);
}

/**
 * sha256 of `prefixed`, whose first byte is already the 0x00 leaf prefix: for callers that
 * encode a leaf straight into their own buffer behind the prefix (lastResultsHash).
 */
export function leafHashOfPrefixed(prefixed: Uint8Array): Uint8Array {
  return sha256(prefixed);
}

/** sha256(0x01 ‖ left ‖ right). */
export function innerHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  const n = left.length + right.length;
  if (n <= SCRATCH_SIZE) {
    scratch[0] = 1;
    scratch.set(left, 1);
    scratch.set(right, 1 + left.length);
    return sha256(scratch.subarray(0, n + 1));
  }
  return sha256OfParts(INNER_PREFIX, left, right);
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

/** Up to this many leaves, merkleRootOfLeafHashes hashes the tree without looking for runs. */
const SMALL_TREE = 16;

function rootOfHashes(hashes: readonly Uint8Array[], from: number, to: number): Uint8Array {
  if (to - from === 1) return hashes[from]!;
  const k = splitPoint(to - from);
  return innerHash(rootOfHashes(hashes, from, from + k), rootOfHashes(hashes, from + k, to));
}

/**
 * Merkle root over leaves whose leaf hashes are already known (hashes[i] = leafHash(items[i])).
 * A run of leaves given as the very same array object (a reused leaf hash) is treated as equal
 * leaves: a subtree lying inside such a run is hashed once per size, so a block of identical
 * results costs a few dozen hashes instead of one per node. Different objects are never compared.
 */
export function merkleRootOfLeafHashes(hashes: readonly Uint8Array[]): Uint8Array {
  const n = hashes.length;
  if (n === 0) return emptyHash();
  // A small tree (a validator set's) costs fewer hashes than the run bookkeeping below.
  if (n <= SMALL_TREE) return n === 1 ? hashes[0]! : rootOfHashes(hashes, 0, n);
  // runEnd[i]: end (exclusive) of the run of identical objects starting at i.
  const runEnd = new Int32Array(n);
  runEnd[n - 1] = n;
  for (let i = n - 2; i >= 0; i--) runEnd[i] = hashes[i] === hashes[i + 1] ? runEnd[i + 1]! : i + 1;
  let memoLeaf: Uint8Array | undefined;
  let memo: Map<number, Uint8Array> | undefined;
  const root = (from: number, to: number): Uint8Array => {
    const size = to - from;
    if (size === 1) return hashes[from]!;
    const uniform = runEnd[from]! >= to;
    if (uniform) {
      const leaf = hashes[from]!;
      if (leaf !== memoLeaf) {
        memoLeaf = leaf;
        memo = new Map();
      }
      const known = memo!.get(size);
      if (known !== undefined) return known;
    }
    const k = splitPoint(size);
    const left = root(from, from + k);
    const right = root(from + k, to);
    const hash = innerHash(left, right);
    if (uniform && memoLeaf === hashes[from]) memo!.set(size, hash);
    return hash;
  };
  return root(0, n);
}

/**
 * merkleRootOfLeafHashes's root over distinct leaf hashes, computed a piece at a time: the perfect
 * subtrees over aligned runs of `piece` leaves (a power of two) first, `pause()` awaited after
 * each, then the few nodes above them. The RFC 6962 split of n leaves only ever cuts at multiples
 * of a power of two at least as large as every part it cuts off whole, so every run of `piece`
 * leaves starting at a multiple of `piece` is one of the tree's subtrees, and the root is the same
 * as hashing it in one go. For a caller on a shared thread (a 50,000-tx block's tree is ~100,000
 * hashes, tens of milliseconds in one piece).
 */
export async function merkleRootOfLeafHashesInPieces(
  hashes: readonly Uint8Array[],
  pause: () => Promise<void>,
  piece = 2048,
): Promise<Uint8Array> {
  if (!(piece >= 2 && (piece & (piece - 1)) === 0))
    throw new RangeError(`merkle piece must be a power of two >= 2, got ${piece}`);
  const n = hashes.length;
  if (n <= piece) return n === 0 ? emptyHash() : rootOfHashes(hashes, 0, n);
  const whole = Math.floor(n / piece);
  const pieceRoots: Uint8Array[] = new Array(whole);
  for (let i = 0; i < whole; i++) {
    pieceRoots[i] = rootOfHashes(hashes, i * piece, (i + 1) * piece);
    await pause();
  }
  const root = (from: number, to: number): Uint8Array => {
    if (to - from === piece && from % piece === 0) return pieceRoots[from / piece]!;
    if (to - from === 1) return hashes[from]!;
    const k = splitPoint(to - from);
    return innerHash(root(from, from + k), root(from + k, to));
  };
  return root(0, n);
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
