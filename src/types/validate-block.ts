// Validation of blocks received from outside (Block.ValidateBasic): a valid header
// (validate-header.ts), and the hashes the header derives from the block's contents.
export { MAX_APP_HASH_BYTES, validateHeader } from "./validate-header.js";

import type { Block } from "../wire/generated/tendermint/types/block.js";
import { commitHash, dataHash, evidenceHash } from "../wire/hashes.js";
import { MAX_BLOCK_SIZE_BYTES } from "./block-limits.js";
import { bytesEqual } from "./bytes.js";
import { TypesError } from "./errors.js";
import { validateCommit } from "./validate-commit.js";
import { validateEvidence } from "./validate-evidence.js";
import { checkMaxLength, fieldError } from "./validate-fields.js";
import { validateHeader } from "./validate-header.js";

function mismatch(field: string, what: string): TypesError {
  return new TypesError(
    "TYPES_HASH_MISMATCH",
    `${field} does not match the hash of the block's ${what}`,
    field,
  );
}

/**
 * A block's shape and self-consistency: valid header, a last commit (empty at the initial
 * height), valid evidence, and last_commit_hash, data_hash and evidence_hash equal to the hashes
 * of what the block carries. Whether it fits the chain's state is checked by state validation.
 */
export function validateBlock(block: Block, field = "block"): void {
  validateHeader(block.header, `${field}.header`);
  if (block.lastCommit === undefined) throw fieldError(`${field}.lastCommit`, "is missing");
  validateCommit(block.lastCommit, `${field}.lastCommit`);
  if (!bytesEqual(block.header.lastCommitHash, commitHash(block.lastCommit)))
    throw mismatch(`${field}.header.lastCommitHash`, "last commit");
  let txBytes = 0;
  for (const tx of block.data.txs) txBytes += tx.length;
  checkMaxLength(`${field}.data.txs`, txBytes, MAX_BLOCK_SIZE_BYTES);
  if (!bytesEqual(block.header.dataHash, dataHash(block.data.txs)))
    throw mismatch(`${field}.header.dataHash`, "txs");
  block.evidence.evidence.forEach((ev, i) => {
    validateEvidence(ev, `${field}.evidence.evidence[${i}]`);
  });
  if (!bytesEqual(block.header.evidenceHash, evidenceHash(block.evidence.evidence)))
    throw mismatch(`${field}.header.evidenceHash`, "evidence");
}
