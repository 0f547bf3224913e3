// DuplicateVoteEvidence from two conflicting votes of one validator (reference §7.6), as the
// evidence pool builds it once the block time of the votes' height is known: the pair is checked
// to be a real conflict and the powers are taken from the validator set of that height.
import { makeDuplicateVoteEvidence } from "../types/evidence.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { DuplicateVoteEvidence } from "../wire/generated/tendermint/types/evidence.js";
import type { Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { ConsensusError } from "./errors.js";
import { sameBlockId, sameBytes } from "./vote-keeper/block-key.js";

/** What is wrong with the pair as a conflict, or undefined when it is one. */
export function conflictProblem(x: Vote, y: Vote): string | undefined {
  if (x.height !== y.height || x.round !== y.round || x.type !== y.type) {
    return "the votes differ in height, round or type";
  }
  if (!sameBytes(x.validatorAddress, y.validatorAddress) || x.validatorIndex !== y.validatorIndex) {
    return "the votes are from different validators";
  }
  if (sameBlockId(x.blockId, y.blockId)) return "the votes are for the same block";
  return undefined;
}

/** Throws CONSENSUS_BAD_BLOCK naming the problem when the votes are not a conflicting pair. */
export function duplicateVoteEvidence(
  x: Vote,
  y: Vote,
  blockTime: Timestamp,
  validators: readonly Validator[],
): DuplicateVoteEvidence {
  const problem = conflictProblem(x, y);
  if (problem !== undefined)
    throw new ConsensusError("CONSENSUS_BAD_BLOCK", `not a duplicate vote: ${problem}`);
  const validator = validators.find((v) => sameBytes(v.address, x.validatorAddress));
  if (validator === undefined) {
    throw new ConsensusError("CONSENSUS_BAD_BLOCK", "not a duplicate vote: the validator is outside the set");
  }
  let total = 0n;
  for (const v of validators) total += v.votingPower;
  return makeDuplicateVoteEvidence(x, y, blockTime, validator.votingPower, total);
}
