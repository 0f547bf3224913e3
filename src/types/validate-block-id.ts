// Validation of BlockIDs and part-set headers received from outside (BlockID.ValidateBasic).

import { blockIdIsComplete, blockIdIsZero } from "../wire/block-id.js";
import type { BlockID, PartSetHeader } from "../wire/generated/tendermint/types/types.js";
import { MAX_BLOCK_PARTS } from "./part-set.js";
import { checkOptionalHash, fieldError } from "./validate-fields.js";

export function validatePartSetHeader(header: PartSetHeader, field = "partSetHeader"): void {
  checkOptionalHash(`${field}.hash`, header.hash);
  if (header.total > MAX_BLOCK_PARTS)
    throw fieldError(`${field}.total`, `must be at most ${MAX_BLOCK_PARTS}, got ${header.total}`);
}

export function validateBlockId(blockId: BlockID, field = "blockId"): void {
  checkOptionalHash(`${field}.hash`, blockId.hash);
  validatePartSetHeader(blockId.partSetHeader, `${field}.partSetHeader`);
}

/** Zero (nil) or complete: what a vote or a commit may carry. */
export function validateBlockIdZeroOrComplete(blockId: BlockID, field = "blockId"): void {
  validateBlockId(blockId, field);
  if (!blockIdIsZero(blockId) && !blockIdIsComplete(blockId))
    throw fieldError(
      field,
      "must be empty (nil) or complete (32-byte hash, parts total > 0, 32-byte parts hash)",
    );
}

export function validateCompleteBlockId(blockId: BlockID, field = "blockId"): void {
  validateBlockId(blockId, field);
  if (!blockIdIsComplete(blockId))
    throw fieldError(field, "must be complete (32-byte hash, parts total > 0, 32-byte parts hash)");
}
