// Evidence of misbehaviour: building DuplicateVoteEvidence (two conflicting votes of one
// validator), reading either kind out of the Evidence oneof, and the ABCI form it takes in
// BeginBlock's byzantine_validators.

import { blockIdKey } from "../wire/block-id.js";
import { WireError } from "../wire/errors.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { type Evidence as AbciEvidence, EvidenceType } from "../wire/generated/tendermint/abci/types.js";
import {
  DuplicateVoteEvidence,
  Evidence,
  EvidenceList,
  LightClientAttackEvidence,
} from "../wire/generated/tendermint/types/evidence.js";
import type { Vote } from "../wire/generated/tendermint/types/types.js";
import { headerHash } from "../wire/hashes.js";
import { compareBytes } from "./bytes.js";

export { evidenceBytes, evidenceHash, evidenceItemHash } from "../wire/hashes.js";
export { DuplicateVoteEvidence, Evidence, EvidenceList, LightClientAttackEvidence };

/**
 * DuplicateVoteEvidence of two votes by one validator at one height/round/type for different
 * blocks. The votes are put in order of their BlockID keys, as v0.34 requires.
 */
export function makeDuplicateVoteEvidence(
  vote1: Vote,
  vote2: Vote,
  blockTime: Timestamp,
  validatorPower: bigint,
  totalVotingPower: bigint,
): DuplicateVoteEvidence {
  const inOrder = compareBytes(blockIdKey(vote1.blockId), blockIdKey(vote2.blockId)) < 0;
  return {
    voteA: inOrder ? vote1 : vote2,
    voteB: inOrder ? vote2 : vote1,
    totalVotingPower,
    validatorPower,
    timestamp: blockTime,
  };
}

export function wrapDuplicateVoteEvidence(evidence: DuplicateVoteEvidence): Evidence {
  return { sum: { $case: "duplicateVoteEvidence", duplicateVoteEvidence: evidence } };
}

export function wrapLightClientAttackEvidence(evidence: LightClientAttackEvidence): Evidence {
  return { sum: { $case: "lightClientAttackEvidence", lightClientAttackEvidence: evidence } };
}

/** Decodes an Evidence oneof from a peer or the RPC; an empty oneof is refused. */
export function decodeEvidence(bytes: Uint8Array): Evidence {
  let evidence: Evidence;
  try {
    evidence = Evidence.decode(bytes);
  } catch (error) {
    throw new WireError("WIRE_DECODE_FAILED", `evidence bytes do not decode: ${(error as Error).message}`);
  }
  if (evidence.sum === undefined)
    throw new WireError(
      "WIRE_UNKNOWN_EVIDENCE",
      "evidence has no duplicate_vote or light_client_attack value",
    );
  return evidence;
}

/** The height the evidence is about (DuplicateVote: the votes'; LightClientAttack: the common height). */
export function evidenceHeight(evidence: Evidence): bigint {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence") return sum.duplicateVoteEvidence.voteA?.height ?? 0n;
  if (sum?.$case === "lightClientAttackEvidence") return sum.lightClientAttackEvidence.commonHeight;
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}

/** The time of the block the evidence refers to. */
export function evidenceTime(evidence: Evidence): Timestamp {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence") return sum.duplicateVoteEvidence.timestamp;
  if (sum?.$case === "lightClientAttackEvidence") return sum.lightClientAttackEvidence.timestamp;
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}

/** The ABCI misbehaviour entries of one evidence item (Evidence.ABCI()). */
export function evidenceToAbci(evidence: Evidence): AbciEvidence[] {
  const sum = evidence.sum;
  if (sum?.$case === "duplicateVoteEvidence") {
    const e = sum.duplicateVoteEvidence;
    return [
      {
        type: EvidenceType.DUPLICATE_VOTE,
        validator: { address: e.voteA?.validatorAddress ?? new Uint8Array(0), power: e.validatorPower },
        height: e.voteA?.height ?? 0n,
        time: e.timestamp,
        totalVotingPower: e.totalVotingPower,
      },
    ];
  }
  if (sum?.$case === "lightClientAttackEvidence") {
    const e = sum.lightClientAttackEvidence;
    return e.byzantineValidators.map((v) => ({
      type: EvidenceType.LIGHT_CLIENT_ATTACK,
      validator: { address: v.address, power: v.votingPower },
      height: e.commonHeight,
      time: e.timestamp,
      totalVotingPower: e.totalVotingPower,
    }));
  }
  throw new WireError("WIRE_UNKNOWN_EVIDENCE", "evidence has no duplicate_vote or light_client_attack value");
}

/** Hash of the conflicting header of a light-client attack (empty when it has none). */
export function conflictingHeaderHash(evidence: LightClientAttackEvidence): Uint8Array {
  const header = evidence.conflictingBlock?.signedHeader?.header;
  return header === undefined ? new Uint8Array(0) : headerHash(header);
}
