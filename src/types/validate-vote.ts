// Validation of a vote received from a peer or found in evidence (Vote.ValidateBasic). The
// signature itself is checked against the validator set elsewhere; this is shape only.
import type { Vote } from "../wire/generated/tendermint/types/types.js";
import { validateBlockIdZeroOrComplete } from "./validate-block-id.js";
import {
  checkAddress,
  checkHeight,
  checkIndex,
  checkRound,
  checkSignature,
  checkTimestamp,
  fieldError,
} from "./validate-fields.js";
import { isVoteType } from "./vote.js";

/** Throws TypesError naming the first invalid field. Heights must be > 0 (as CometBFT 0.34 requires). */
export function validateVote(vote: Vote, field = "vote"): void {
  if (!isVoteType(vote.type))
    throw fieldError(`${field}.type`, `must be prevote (1) or precommit (2), got ${vote.type}`);
  checkHeight(`${field}.height`, vote.height);
  checkRound(`${field}.round`, vote.round);
  validateBlockIdZeroOrComplete(vote.blockId, `${field}.blockId`);
  checkTimestamp(`${field}.timestamp`, vote.timestamp);
  checkAddress(`${field}.validatorAddress`, vote.validatorAddress);
  checkIndex(`${field}.validatorIndex`, vote.validatorIndex);
  checkSignature(`${field}.signature`, vote.signature);
}
