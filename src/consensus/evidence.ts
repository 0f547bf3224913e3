// DuplicateVoteEvidence from two conflicting votes of one validator (reference §7.6), as the
// evidence pool builds it once the block time of the votes' height is known: voteA is the vote
// with the smaller BlockID key, powers are from the validator set of that height.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { DuplicateVoteEvidence } from "../wire/generated/tendermint/types/evidence.js";
import type { Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { ConsensusError } from "./errors.js";
import { orderConflictingVotes } from "./handlers/receive-vote.js";
import { sameBytes } from "./vote-keeper/block-key.js";

/** Throws CONSENSUS_BAD_BLOCK naming the mismatch when the votes are not a conflicting pair. */
export function duplicateVoteEvidence(
  x: Vote,
  y: Vote,
  blockTime: Timestamp,
  validators: readonly Validator[],
): DuplicateVoteEvidence {
  if (x.height !== y.height || x.round !== y.round || x.type !== y.type) {
    throw new ConsensusError("CONSENSUS_BAD_BLOCK", "conflicting votes differ in height, round or type");
  }
  if (!sameBytes(x.validatorAddress, y.validatorAddress)) {
    throw new ConsensusError("CONSENSUS_BAD_BLOCK", "conflicting votes are from different validators");
  }
  const validator = validators.find((v) => sameBytes(v.address, x.validatorAddress));
  if (validator === undefined) {
    throw new ConsensusError("CONSENSUS_BAD_BLOCK", "conflicting votes are from a validator outside the set");
  }
  let total = 0n;
  for (const v of validators) total += v.votingPower;
  const { voteA, voteB } = orderConflictingVotes(x, y);
  return {
    voteA,
    voteB,
    totalVotingPower: total,
    validatorPower: validator.votingPower,
    timestamp: blockTime,
  };
}
