// Block size limits (types/block.go, types/params.go): the hard cap on max_bytes, the fixed
// overheads of a block's protobuf around its txs, and the room left for txs in a proposal.
import { TypesError } from "./errors.js";

/** Block protocol version every v0.34 header carries (version.BlockProtocol). */
export const BLOCK_PROTOCOL_VERSION = 11n;

/** No consensus params may allow blocks above 100 MiB. */
export const MAX_BLOCK_SIZE_BYTES = 104857600;
/** Upper bound of a header's protobuf. */
export const MAX_HEADER_BYTES = 626;
/** Field tags and lengths of the block around header, data, evidence and commit. */
export const MAX_OVERHEAD_FOR_BLOCK = 11;
/** Commit fields other than the signatures. */
export const MAX_COMMIT_OVERHEAD_BYTES = 94;
/** Upper bound of one CommitSig's protobuf. */
export const MAX_COMMIT_SIG_BYTES = 109;
/** A chain id is at most this many characters. */
export const MAX_CHAIN_ID_LENGTH = 50;

/** Upper bound of a commit of `validators` signatures (each with its 2-byte field overhead). */
export function maxCommitBytes(validators: number): number {
  return MAX_COMMIT_OVERHEAD_BYTES + (MAX_COMMIT_SIG_BYTES + 2) * validators;
}

/**
 * Bytes left for txs in a block of `maxBytes` with `validators` signatures in its last commit and
 * `evidenceBytes` of evidence. Throws when the fixed parts alone do not fit (bad params).
 */
export function maxDataBytes(maxBytes: number, evidenceBytes: number, validators: number): number {
  const left =
    maxBytes - MAX_OVERHEAD_FOR_BLOCK - MAX_HEADER_BYTES - maxCommitBytes(validators) - evidenceBytes;
  if (left < 0)
    throw new TypesError(
      "TYPES_INVALID_PARAMS",
      `block max_bytes ${maxBytes} is too small for a header, a commit of ${validators} validators and ${evidenceBytes} bytes of evidence (${-left} bytes short)`,
    );
  return left;
}

/** maxDataBytes with no evidence (MaxDataBytesNoEvidence). */
export function maxDataBytesNoEvidence(maxBytes: number, validators: number): number {
  return maxDataBytes(maxBytes, 0, validators);
}
