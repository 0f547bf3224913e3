// Validation of commits and their signatures received from outside (Commit.ValidateBasic,
// CommitSig.ValidateBasic).

import { blockIdIsZero } from "../wire/block-id.js";
import { BlockIDFlag, type Commit, type CommitSig } from "../wire/generated/tendermint/types/types.js";
import { isGoZeroTime } from "./time.js";
import { validateBlockIdZeroOrComplete } from "./validate-block-id.js";
import {
  checkAddress,
  checkHeight,
  checkRound,
  checkSignature,
  checkTimestamp,
  fieldError,
} from "./validate-fields.js";

/** v0.34's MaxVotesCount: no vote set, so no commit, holds more. */
export const MAX_COMMIT_SIGNATURES = 10000;

export function validateCommitSig(sig: CommitSig, field = "commitSig"): void {
  switch (sig.blockIdFlag) {
    case BlockIDFlag.BLOCK_ID_FLAG_ABSENT:
      if (sig.validatorAddress.length !== 0)
        throw fieldError(`${field}.validatorAddress`, "must be empty for an absent signature");
      if (!isGoZeroTime(sig.timestamp))
        throw fieldError(`${field}.timestamp`, "must be the zero time for an absent signature");
      if (sig.signature.length !== 0)
        throw fieldError(`${field}.signature`, "must be empty for an absent signature");
      return;
    case BlockIDFlag.BLOCK_ID_FLAG_COMMIT:
    case BlockIDFlag.BLOCK_ID_FLAG_NIL:
      checkAddress(`${field}.validatorAddress`, sig.validatorAddress);
      checkTimestamp(`${field}.timestamp`, sig.timestamp);
      checkSignature(`${field}.signature`, sig.signature);
      return;
    default:
      throw fieldError(
        `${field}.blockIdFlag`,
        `must be absent (1), commit (2) or nil (3), got ${sig.blockIdFlag}`,
      );
  }
}

/** A commit for a block: height ≥ 1 needs a non-nil BlockID and at least one signature. */
export function validateCommit(commit: Commit, field = "commit"): void {
  checkHeight(`${field}.height`, commit.height, true);
  checkRound(`${field}.round`, commit.round);
  validateBlockIdZeroOrComplete(commit.blockId, `${field}.blockId`);
  if (commit.signatures.length > MAX_COMMIT_SIGNATURES)
    throw fieldError(
      `${field}.signatures`,
      `must hold at most ${MAX_COMMIT_SIGNATURES} entries, got ${commit.signatures.length}`,
    );
  if (commit.height >= 1n) {
    if (blockIdIsZero(commit.blockId)) throw fieldError(`${field}.blockId`, "must not be nil in a commit");
    if (commit.signatures.length === 0) throw fieldError(`${field}.signatures`, "must not be empty");
    commit.signatures.forEach((sig, i) => {
      validateCommitSig(sig, `${field}.signatures[${i}]`);
    });
  }
}
