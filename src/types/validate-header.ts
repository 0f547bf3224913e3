// Validation of a header received from outside (Header.ValidateBasic): version, field sizes and
// hash lengths. Used by block validation and by evidence (a light-client attack carries headers).
import type { Header } from "../wire/generated/tendermint/types/types.js";
import { BLOCK_PROTOCOL_VERSION, MAX_CHAIN_ID_LENGTH } from "./block-limits.js";
import { validateBlockId } from "./validate-block-id.js";
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
