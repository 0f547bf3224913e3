// Validation of evidence received from peers, the RPC or a block (DuplicateVoteEvidence and
// LightClientAttackEvidence ValidateBasic). Whether it is true (signatures, validator set, age)
// is for the evidence pool to check against state.

import { blockIdKey } from "../wire/block-id.js";
import type {
  DuplicateVoteEvidence,
  Evidence,
  LightClientAttackEvidence,
} from "../wire/generated/tendermint/types/evidence.js";
import { headerHash, validatorSetHash } from "../wire/hashes.js";
import { bytesEqual, compareBytes } from "./bytes.js";
import { validateBlockId } from "./validate-block-id.js";
import { validateCommit } from "./validate-commit.js";
import { checkAddress, checkHeight, checkTimestamp, fieldError } from "./validate-fields.js";
import { validateHeader } from "./validate-header.js";
import { validatePublicKey } from "./validate-public-key.js";
import { validateVote } from "./validate-vote.js";

/** Upper bound on the byzantine validators an attack may name (the vote-set maximum). */
export const MAX_BYZANTINE_VALIDATORS = 10000;

export function validateDuplicateVoteEvidence(
  e: DuplicateVoteEvidence,
  field = "duplicateVoteEvidence",
): void {
  if (e.voteA === undefined) throw fieldError(`${field}.voteA`, "is missing");
  if (e.voteB === undefined) throw fieldError(`${field}.voteB`, "is missing");
  validateVote(e.voteA, `${field}.voteA`);
  validateVote(e.voteB, `${field}.voteB`);
  if (compareBytes(blockIdKey(e.voteA.blockId), blockIdKey(e.voteB.blockId)) >= 0)
    throw fieldError(field, "votes must be ordered by BlockID (voteA's key below voteB's)");
  if (e.totalVotingPower < 0n)
    throw fieldError(`${field}.totalVotingPower`, `must be ≥ 0, got ${e.totalVotingPower}`);
  if (e.validatorPower < 0n)
    throw fieldError(`${field}.validatorPower`, `must be ≥ 0, got ${e.validatorPower}`);
  checkTimestamp(`${field}.timestamp`, e.timestamp);
}

export function validateLightClientAttackEvidence(
  e: LightClientAttackEvidence,
  field = "lightClientAttackEvidence",
): void {
  const block = e.conflictingBlock;
  if (block === undefined) throw fieldError(`${field}.conflictingBlock`, "is missing");
  const signedHeader = block.signedHeader;
  if (signedHeader === undefined) throw fieldError(`${field}.conflictingBlock.signedHeader`, "is missing");
  if (signedHeader.header === undefined)
    throw fieldError(`${field}.conflictingBlock.signedHeader.header`, "is missing");
  if (signedHeader.commit === undefined)
    throw fieldError(`${field}.conflictingBlock.signedHeader.commit`, "is missing");
  if (block.validatorSet === undefined)
    throw fieldError(`${field}.conflictingBlock.validatorSet`, "is missing");
  validateHeader(signedHeader.header, `${field}.conflictingBlock.signedHeader.header`);
  validateCommit(signedHeader.commit, `${field}.conflictingBlock.signedHeader.commit`);
  validateBlockId(signedHeader.commit.blockId, `${field}.conflictingBlock.signedHeader.commit.blockId`);
  // LightBlock.ValidateBasic: the commit is for this header, signed by this validator set.
  const lb = `${field}.conflictingBlock`;
  if (signedHeader.commit.height !== signedHeader.header.height)
    throw fieldError(
      `${lb}.signedHeader.commit.height`,
      `must equal the header height ${signedHeader.header.height}, got ${signedHeader.commit.height}`,
    );
  if (!bytesEqual(signedHeader.commit.blockId.hash, headerHash(signedHeader.header)))
    throw fieldError(`${lb}.signedHeader.commit.blockId.hash`, "must be the hash of the conflicting header");
  const vals = block.validatorSet.validators;
  if (vals.length === 0) throw fieldError(`${lb}.validatorSet.validators`, "must not be empty");
  vals.forEach((v, i) => {
    checkAddress(`${lb}.validatorSet.validators[${i}].address`, v.address);
    validatePublicKey(v.pubKey, `${lb}.validatorSet.validators[${i}].pubKey`);
  });
  if (vals.length > MAX_BYZANTINE_VALIDATORS)
    throw fieldError(
      `${lb}.validatorSet.validators`,
      `must hold at most ${MAX_BYZANTINE_VALIDATORS} entries, got ${vals.length}`,
    );
  if (!bytesEqual(validatorSetHash(vals), signedHeader.header.validatorsHash))
    throw fieldError(`${lb}.validatorSet`, "must hash to the conflicting header's validators_hash");
  checkHeight(`${field}.commonHeight`, e.commonHeight);
  if (e.commonHeight > signedHeader.header.height)
    throw fieldError(
      `${field}.commonHeight`,
      `must not be above the conflicting block's height ${signedHeader.header.height}, got ${e.commonHeight}`,
    );
  if (e.byzantineValidators.length > MAX_BYZANTINE_VALIDATORS)
    throw fieldError(
      `${field}.byzantineValidators`,
      `must hold at most ${MAX_BYZANTINE_VALIDATORS} entries, got ${e.byzantineValidators.length}`,
    );
  e.byzantineValidators.forEach((v, i) => {
    checkAddress(`${field}.byzantineValidators[${i}].address`, v.address);
    validatePublicKey(v.pubKey, `${field}.byzantineValidators[${i}].pubKey`);
  });
  if (e.totalVotingPower <= 0n)
    throw fieldError(`${field}.totalVotingPower`, `must be greater than 0, got ${e.totalVotingPower}`);
  checkTimestamp(`${field}.timestamp`, e.timestamp);
}

export function validateEvidence(evidence: Evidence, field = "evidence"): void {
  const sum = evidence.sum;
  if (sum === undefined)
    throw fieldError(field, "holds neither duplicate_vote nor light_client_attack evidence");
  if (sum.$case === "duplicateVoteEvidence")
    validateDuplicateVoteEvidence(sum.duplicateVoteEvidence, `${field}.duplicateVoteEvidence`);
  else validateLightClientAttackEvidence(sum.lightClientAttackEvidence, `${field}.lightClientAttackEvidence`);
}
