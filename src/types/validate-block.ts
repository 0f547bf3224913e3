// Validation of headers and blocks received from outside (Header.ValidateBasic,
// Block.ValidateBasic): field sizes, and the hashes the header derives from the block's contents.
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { Header } from "../wire/generated/tendermint/types/types.js";
import { commitHash, dataHash, evidenceHash } from "../wire/hashes.js";
import { BLOCK_PROTOCOL_VERSION, MAX_BLOCK_SIZE_BYTES, MAX_CHAIN_ID_LENGTH } from "./block-limits.js";
import { bytesEqual } from "./bytes.js";
import { TypesError } from "./errors.js";
import { validateBlockId } from "./validate-block-id.js";
import { validateCommit } from "./validate-commit.js";
import { validateEvidence } from "./validate-evidence.js";
import {
  checkAddress,
  checkHeight,
  checkMaxLength,
  checkOptionalHash,
  checkTimestamp,
  fieldError,
} from "./validate-fields.js";

/** Larger app hashes are not a v0.34 rule, but nothing legitimate comes close. */
export const MAX_APP_HASH_BYTES = 1024;

export function validateHeader(header: Header, field = "header"): void {
  if (header.version.block !== BLOCK_PROTOCOL_VERSION)
    throw fieldError(
      `${field}.version.block`,
      `must be ${BLOCK_PROTOCOL_VERSION}, got ${header.version.block}`,
    );
  checkMaxLength(`${field}.chainId`, header.chainId.length, MAX_CHAIN_ID_LENGTH, "characters");
  checkHeight(`${field}.height`, header.height);
  checkTimestamp(`${field}.time`, header.time);
  validateBlockId(header.lastBlockId, `${field}.lastBlockId`);
  checkOptionalHash(`${field}.lastCommitHash`, header.lastCommitHash);
  checkOptionalHash(`${field}.dataHash`, header.dataHash);
  checkOptionalHash(`${field}.evidenceHash`, header.evidenceHash);
  checkAddress(`${field}.proposerAddress`, header.proposerAddress);
  // Empty or 32 bytes, as v0.34 allows; state validation compares them with the state's.
  checkOptionalHash(`${field}.validatorsHash`, header.validatorsHash);
  checkOptionalHash(`${field}.nextValidatorsHash`, header.nextValidatorsHash);
  checkOptionalHash(`${field}.consensusHash`, header.consensusHash);
  checkOptionalHash(`${field}.lastResultsHash`, header.lastResultsHash);
  checkMaxLength(`${field}.appHash`, header.appHash.length, MAX_APP_HASH_BYTES);
}

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
