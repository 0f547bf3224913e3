// DuplicateVoteEvidence (reference §7.6): built from two conflicting votes of one validator once
// the block time of their height is known (the pair checked to be a real conflict, the powers
// taken from the validator set of that height), and verified as v0.34's VerifyDuplicateVote.

import { upperHex } from "../bytes.js";
import { bytesEqual } from "../types/bytes.js";
import { blockIdsEqual } from "../types/commit-verification.js";
import { makeDuplicateVoteEvidence } from "../types/evidence.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { DuplicateVoteEvidence } from "../wire/generated/tendermint/types/evidence.js";
import type { Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { voteSignBytes } from "../wire/sign-bytes.js";
import { EvidenceError } from "./errors.js";
import type { SignatureVerifier } from "./state.js";

/** What is wrong with the pair as a conflict, or undefined when it is one. */
export function conflictProblem(x: Vote, y: Vote): string | undefined {
  if (x.height !== y.height || x.round !== y.round || x.type !== y.type) {
    return "the votes differ in height, round or type";
  }
  if (!bytesEqual(x.validatorAddress, y.validatorAddress) || x.validatorIndex !== y.validatorIndex) {
    return "the votes are from different validators";
  }
  if (blockIdsEqual(x.blockId, y.blockId)) return "the votes are for the same block";
  return undefined;
}

/** Throws EVIDENCE_NOT_A_CONFLICT naming the problem when the votes are not a conflicting pair. */
export function duplicateVoteEvidence(
  x: Vote,
  y: Vote,
  blockTime: Timestamp,
  validators: readonly Validator[],
): DuplicateVoteEvidence {
  const problem = conflictProblem(x, y);
  if (problem !== undefined)
    throw new EvidenceError("EVIDENCE_NOT_A_CONFLICT", `not a duplicate vote: ${problem}`);
  const validator = validators.find((v) => bytesEqual(v.address, x.validatorAddress));
  if (validator === undefined) {
    throw new EvidenceError(
      "EVIDENCE_NOT_A_CONFLICT",
      "not a duplicate vote: the validator is outside the set",
    );
  }
  let total = 0n;
  for (const v of validators) total += v.votingPower;
  return makeDuplicateVoteEvidence(x, y, blockTime, validator.votingPower, total);
}

/** v0.34's VerifyDuplicateVote: what is wrong with the evidence against `validators`, or undefined. */
export function duplicateVoteProblem(
  e: DuplicateVoteEvidence,
  chainId: string,
  validators: readonly Validator[],
  verify: SignatureVerifier,
): string | undefined {
  const a = e.voteA;
  const b = e.voteB;
  if (a === undefined || b === undefined) return "a vote is missing";
  const validator = validators.find((v) => bytesEqual(v.address, a.validatorAddress));
  if (validator === undefined)
    return `address ${upperHex(a.validatorAddress)} was not a validator at height ${a.height}`;
  const conflict = conflictProblem(a, b);
  if (conflict !== undefined) return conflict;
  if (validator.votingPower !== e.validatorPower) {
    return `validator power ${e.validatorPower} does not match the set's ${validator.votingPower}`;
  }
  let total = 0n;
  for (const v of validators) total += v.votingPower;
  if (total !== e.totalVotingPower)
    return `total voting power ${e.totalVotingPower} does not match the set's ${total}`;
  const sum = validator.pubKey.sum;
  if (sum?.$case !== "ed25519") return "the validator has no ed25519 key";
  if (!verify(sum.ed25519, voteSignBytes(chainId, a), a.signature))
    return "voteA's signature does not verify";
  if (!verify(sum.ed25519, voteSignBytes(chainId, b), b.signature))
    return "voteB's signature does not verify";
  return undefined;
}
