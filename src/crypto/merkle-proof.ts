// Checking a merkle inclusion proof (crypto/merkle/proof.go semantics): the proof's leaf hash must
// be the leaf's, and folding the aunts with the same split rule must give the expected root.
import { bytesEqual } from "../bytes.js";
import { CodedError } from "../coded-error.js";
import type { Proof } from "../wire/generated/tendermint/crypto/proof.js";
import { HASH_SIZE } from "./hash.js";
import { innerHash, leafHash, splitPoint } from "./merkle.js";

/** Tendermint refuses proofs with more aunts than this (a tree of 2^100 leaves). */
export const MAX_AUNTS = 100;

export type MerkleProofErrorCode = "MERKLE_PROOF_MALFORMED" | "MERKLE_PROOF_MISMATCH";

export class MerkleProofError extends CodedError<MerkleProofErrorCode> {
  constructor(code: MerkleProofErrorCode, message: string) {
    super(code, message);
  }
}

/**
 * The root a proof implies for the leaf hash at `index` of `total`, or undefined when the aunts do
 * not fit the tree shape (too many, too few).
 */
export function rootFromAunts(
  index: bigint,
  total: bigint,
  leaf: Uint8Array,
  aunts: readonly Uint8Array[],
  auntCount = aunts.length,
): Uint8Array | undefined {
  if (index >= total || index < 0n || total <= 0n) return undefined;
  if (total === 1n) return auntCount === 0 ? leaf : undefined;
  if (auntCount === 0) return undefined;
  // total ≤ 2^100 after the aunt-count check, but a part set is tiny: go through Number only
  // while it is exact, else split with bigint.
  const k = total <= 0x7fffffffn ? BigInt(splitPoint(Number(total))) : bigSplitPoint(total);
  const last = aunts[auntCount - 1]!;
  if (index < k) {
    const left = rootFromAunts(index, k, leaf, aunts, auntCount - 1);
    return left === undefined ? undefined : innerHash(left, last);
  }
  const right = rootFromAunts(index - k, total - k, leaf, aunts, auntCount - 1);
  return right === undefined ? undefined : innerHash(last, right);
}

function bigSplitPoint(n: bigint): bigint {
  let k = 1n;
  while (k << 1n < n) k <<= 1n;
  return k;
}

/** Shape checks of a proof received from outside (Proof.ValidateBasic). Throws MerkleProofError. */
export function validateMerkleProof(proof: Proof, where = "proof"): void {
  if (proof.total < 0n)
    throw new MerkleProofError("MERKLE_PROOF_MALFORMED", `${where}.total must be ≥ 0, got ${proof.total}`);
  if (proof.index < 0n)
    throw new MerkleProofError("MERKLE_PROOF_MALFORMED", `${where}.index must be ≥ 0, got ${proof.index}`);
  if (proof.leafHash.length !== HASH_SIZE)
    throw new MerkleProofError(
      "MERKLE_PROOF_MALFORMED",
      `${where}.leafHash must be ${HASH_SIZE} bytes, got ${proof.leafHash.length}`,
    );
  if (proof.aunts.length > MAX_AUNTS)
    throw new MerkleProofError(
      "MERKLE_PROOF_MALFORMED",
      `${where}.aunts has ${proof.aunts.length} entries, at most ${MAX_AUNTS} allowed`,
    );
  proof.aunts.forEach((aunt, i) => {
    if (aunt.length !== HASH_SIZE)
      throw new MerkleProofError(
        "MERKLE_PROOF_MALFORMED",
        `${where}.aunts[${i}] must be ${HASH_SIZE} bytes, got ${aunt.length}`,
      );
  });
}

/** Throws MerkleProofError unless `proof` proves `leaf` under `root`. */
export function verifyMerkleProof(proof: Proof, root: Uint8Array, leaf: Uint8Array, where = "proof"): void {
  validateMerkleProof(proof, where);
  if (!bytesEqual(leafHash(leaf), proof.leafHash))
    throw new MerkleProofError("MERKLE_PROOF_MISMATCH", `${where}.leafHash is not the hash of the leaf`);
  const computed = rootFromAunts(proof.index, proof.total, proof.leafHash, proof.aunts);
  if (computed === undefined)
    throw new MerkleProofError(
      "MERKLE_PROOF_MALFORMED",
      `${where}: ${proof.aunts.length} aunts do not fit index ${proof.index} of ${proof.total}`,
    );
  if (!bytesEqual(computed, root))
    throw new MerkleProofError("MERKLE_PROOF_MISMATCH", `${where} leads to a different root`);
}

/** True when `proof` proves `leaf` under `root`. */
export function merkleProofVerifies(proof: Proof, root: Uint8Array, leaf: Uint8Array): boolean {
  try {
    verifyMerkleProof(proof, root, leaf);
    return true;
  } catch (error) {
    if (error instanceof MerkleProofError) return false;
    throw error;
  }
}
