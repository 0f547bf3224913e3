// Validation of a block part received from a peer (Part.ValidateBasic); its proof against the
// part-set hash is checked when it is added to a part set.
import { MerkleProofError, validateMerkleProof } from "../crypto/merkle-proof.js";
import type { Part } from "../wire/generated/tendermint/types/types.js";
import { TypesError } from "./errors.js";
import { BLOCK_PART_SIZE_BYTES, MAX_BLOCK_PARTS } from "./part-set.js";
import { checkMaxLength, fieldError } from "./validate-fields.js";

export function validatePart(part: Part, field = "part"): void {
  if (part.index >= MAX_BLOCK_PARTS)
    throw fieldError(`${field}.index`, `must be below ${MAX_BLOCK_PARTS}, got ${part.index}`);
  checkMaxLength(`${field}.bytes`, part.bytes.length, BLOCK_PART_SIZE_BYTES);
  // Every part but the last is cut at exactly the part size.
  if (BigInt(part.index) < part.proof.total - 1n && part.bytes.length !== BLOCK_PART_SIZE_BYTES)
    throw fieldError(
      `${field}.bytes`,
      `must be exactly ${BLOCK_PART_SIZE_BYTES} bytes for part ${part.index} of ${part.proof.total}, got ${part.bytes.length}`,
    );
  try {
    validateMerkleProof(part.proof, `${field}.proof`);
  } catch (error) {
    if (error instanceof MerkleProofError)
      throw new TypesError("TYPES_INVALID_FIELD", error.message, `${field}.proof`);
    throw error;
  }
}
