// consensus_state and dump_consensus_state: v0.34's round state JSON, with votes written as Go's
// Vote.String() ("Vote{0:AB12CD34EF56 5/00/SIGNED_MSG_TYPE_PREVOTE(Prevote) … @ time}", absent
// ones "nil-Vote") and vote bit arrays as "BA{n:x_} voted/total = frac".

import { blockIdJson, blockJson } from "../../rpc/json/json-block.js";
import type { JsonForm } from "../../rpc/json/json-form.js";
import { hexUpper, int64, rfc3339 } from "../../rpc/json/json-primitives.js";
import type { JsonValue } from "../../rpc/json/json-text.js";
import { validatorJson } from "../../rpc/json/json-validator.js";
import type {
  ConsensusStateResult,
  DumpConsensusStateResult,
  RoundStateFull,
  RoundVotesView,
} from "../../rpc/json/result-types.js";
import type { Timestamp } from "../../types/time.js";
import type { Vote } from "../../wire/generated/tendermint/types/types.js";

const TYPE_NAMES: Record<number, [string, string]> = {
  1: ["SIGNED_MSG_TYPE_PREVOTE", "Prevote"],
  2: ["SIGNED_MSG_TYPE_PRECOMMIT", "Precommit"],
  32: ["SIGNED_MSG_TYPE_PROPOSAL", "Proposal"],
};

/** Go's tmbytes.Fingerprint: the first 6 bytes, zero-padded, as upper hex. */
function fingerprint(bytes: Uint8Array | undefined): string {
  const out = new Uint8Array(6);
  if (bytes) out.set(bytes.subarray(0, 6));
  return hexUpper(out);
}

/** Go's canonical time: RFC 3339 with exactly nine fraction digits. */
function canonicalTime(t: Timestamp | undefined): string {
  const text = rfc3339(t);
  const [head, fraction = ""] = text.slice(0, -1).split(".");
  return `${head}.${fraction.padEnd(9, "0")}Z`;
}

export function voteString(vote: Vote | undefined): string {
  if (vote === undefined) return "nil-Vote";
  const [typeName, typeString] = TYPE_NAMES[vote.type] ?? [`SIGNED_MSG_TYPE_${vote.type}`, "Unknown"];
  const round = String(vote.round).padStart(2, "0");
  return `Vote{${vote.validatorIndex}:${fingerprint(vote.validatorAddress)} ${vote.height}/${round}/${typeName}(${typeString}) ${fingerprint(vote.blockId?.hash)} ${fingerprint(vote.signature)} @ ${canonicalTime(vote.timestamp)}}`;
}

function roundVotesJson(r: RoundVotesView): JsonValue {
  return {
    round: r.round,
    prevotes: r.prevotes.map(voteString),
    prevotes_bit_array: r.prevotesBitArray,
    precommits: r.precommits.map(voteString),
    precommits_bit_array: r.precommitsBitArray,
  };
}

export function consensusStateJson(result: ConsensusStateResult): JsonValue {
  const s = result.roundState;
  return {
    round_state: {
      "height/round/step": `${s.height}/${s.round}/${s.step}`,
      start_time: rfc3339(s.startTime),
      proposal_block_hash: hexUpper(s.proposalBlockHash),
      locked_block_hash: hexUpper(s.lockedBlockHash),
      valid_block_hash: hexUpper(s.validBlockHash),
      height_vote_set: s.heightVoteSet.map(roundVotesJson),
      proposer: { address: hexUpper(s.proposer.address), index: s.proposer.index },
    },
  };
}

function validatorSetJson(set: RoundStateFull["validators"], form: JsonForm): JsonValue {
  return {
    validators: set.validators.map((v) => validatorJson(v, form)),
    proposer: set.proposer === undefined ? null : validatorJson(set.proposer, form),
  };
}

function proposalJson(p: unknown): JsonValue {
  const proposal = p as
    | {
        type: number;
        height: bigint;
        round: number;
        polRound: number;
        blockId: Parameters<typeof blockIdJson>[0];
        timestamp: Timestamp;
        signature: Uint8Array;
      }
    | undefined;
  if (proposal === undefined) return null;
  return {
    type: proposal.type,
    height: int64(proposal.height),
    round: proposal.round,
    pol_round: proposal.polRound,
    block_id: blockIdJson(proposal.blockId),
    timestamp: rfc3339(proposal.timestamp),
    signature: Buffer.from(proposal.signature).toString("base64"),
  };
}

export function dumpConsensusStateJson(result: DumpConsensusStateResult, form: JsonForm): JsonValue {
  const s = result.roundState;
  return {
    round_state: {
      height: int64(s.height),
      round: s.round,
      step: s.step,
      start_time: rfc3339(s.startTime),
      commit_time: rfc3339(s.commitTime),
      validators: validatorSetJson(s.validators, form),
      proposal: proposalJson(s.proposal),
      proposal_block: blockJson(s.proposalBlock, form),
      proposal_block_parts: null,
      locked_round: s.lockedRound,
      locked_block: blockJson(s.lockedBlock, form),
      locked_block_parts: null,
      valid_round: s.validRound,
      valid_block: blockJson(s.validBlock, form),
      valid_block_parts: null,
      votes: s.votes.map(roundVotesJson),
      commit_round: s.commitRound,
      last_commit:
        s.lastCommit === undefined
          ? null
          : {
              votes: s.lastCommit.precommits.map(voteString),
              votes_bit_array: s.lastCommit.precommitsBitArray,
              peer_maj_23s: {},
            },
      last_validators: validatorSetJson(s.lastValidators, form),
      triggered_timeout_precommit: s.triggeredTimeoutPrecommit,
    },
    peers: result.peers.map((p) => ({ node_address: p.nodeAddress, peer_state: null })),
  };
}

/** Go's VoteSet.BitArrayString(): "BA{4:xx_x} 30/40 = 0.75". */
export function voteBitArrayString(
  votes: readonly (Vote | undefined)[],
  powers: readonly bigint[],
  totalPower: bigint,
): string {
  let bits = "";
  let voted = 0n;
  for (let i = 0; i < votes.length; i++) {
    if (votes[i] !== undefined) {
      bits += "x";
      voted += powers[i] ?? 0n;
    } else bits += "_";
  }
  const fraction = totalPower === 0n ? 0 : Number(voted) / Number(totalPower);
  return `BA{${votes.length}:${bits}} ${voted}/${totalPower} = ${fraction.toFixed(2)}`;
}
