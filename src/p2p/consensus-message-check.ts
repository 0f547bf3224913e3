// ValidateBasic of every consensus reactor message (v0.34 consensus/msgs.go, p2p-v034.md §6.1),
// applied on receipt before anything reaches the gossip reducer or the consensus log: a message
// failing here makes the peer be reported and disconnected. The rule against the chain's initial
// height (NewRoundStep's last_commit_round) needs our state and lives in the gossip reducer.
import { bitsFromWire } from "../consensus/gossip/bit-array.js";
import type { ConsensusMessage } from "../consensus/gossip/message.js";
import { TypesError } from "../types/errors.js";
import { MAX_BLOCK_PARTS } from "../types/part-set.js";
import { validateBlockId } from "../types/validate-block-id.js";
import { checkHeight, checkIndex, checkRound, fieldError } from "../types/validate-fields.js";
import { validatePart } from "../types/validate-part.js";
import { validateProposal } from "../types/validate-proposal.js";
import { validateVote } from "../types/validate-vote.js";
import type { BitArray } from "../wire/generated/tendermint/libs/bits/types.js";
import { SignedMsgType } from "../wire/generated/tendermint/types/types.js";

/** v0.34's types.MaxVotesCount: the largest vote bit array a peer may send. */
export const MAX_VOTES_COUNT = 10000;

export type { ConsensusMessage };

function checkVoteType(field: string, type: SignedMsgType): void {
  if (type !== SignedMsgType.SIGNED_MSG_TYPE_PREVOTE && type !== SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT)
    throw fieldError(field, `must be prevote (1) or precommit (2), got ${type}`);
}

function checkBits(field: string, bits: BitArray, max: number): number {
  const read = bitsFromWire(bits, max);
  if (typeof read === "string") throw fieldError(field, read);
  return read.length;
}

function check(m: ConsensusMessage): void {
  switch (m.$case) {
    case "newRoundStep": {
      const s = m.newRoundStep;
      checkHeight("newRoundStep.height", s.height, true);
      checkRound("newRoundStep.round", s.round);
      if (!Number.isInteger(s.step) || s.step < 1 || s.step > 8)
        throw fieldError("newRoundStep.step", `must be a round step 1..8, got ${s.step}`);
      if (!Number.isInteger(s.lastCommitRound) || s.lastCommitRound < -1)
        throw fieldError("newRoundStep.lastCommitRound", `must be ≥ -1, got ${s.lastCommitRound}`);
      return;
    }
    case "newValidBlock": {
      const b = m.newValidBlock;
      checkHeight("newValidBlock.height", b.height, true);
      checkRound("newValidBlock.round", b.round);
      validateBlockId({ hash: new Uint8Array(0), partSetHeader: b.blockPartSetHeader }, "newValidBlock");
      if (b.blockParts === undefined) throw fieldError("newValidBlock.blockParts", "is missing");
      const size = checkBits("newValidBlock.blockParts", b.blockParts, MAX_BLOCK_PARTS);
      if (size === 0) throw fieldError("newValidBlock.blockParts", "must not be empty");
      if (size !== b.blockPartSetHeader.total)
        throw fieldError(
          "newValidBlock.blockParts",
          `has ${size} bits but the part set has ${b.blockPartSetHeader.total} parts`,
        );
      return;
    }
    case "proposal":
      validateProposal(m.proposal.proposal, "proposal");
      return;
    case "proposalPol": {
      const p = m.proposalPol;
      checkHeight("proposalPol.height", p.height, true);
      checkRound("proposalPol.proposalPolRound", p.proposalPolRound);
      const size = checkBits("proposalPol.proposalPol", p.proposalPol, MAX_VOTES_COUNT);
      if (size === 0) throw fieldError("proposalPol.proposalPol", "must not be empty");
      return;
    }
    case "blockPart":
      checkHeight("blockPart.height", m.blockPart.height, true);
      checkRound("blockPart.round", m.blockPart.round);
      validatePart(m.blockPart.part, "blockPart.part");
      return;
    case "vote":
      if (m.vote.vote === undefined) throw fieldError("vote.vote", "is missing");
      validateVote(m.vote.vote, "vote");
      return;
    case "hasVote":
      checkHeight("hasVote.height", m.hasVote.height, true);
      checkRound("hasVote.round", m.hasVote.round);
      checkIndex("hasVote.index", m.hasVote.index);
      checkVoteType("hasVote.type", m.hasVote.type);
      return;
    case "voteSetMaj23":
      checkHeight("voteSetMaj23.height", m.voteSetMaj23.height, true);
      checkRound("voteSetMaj23.round", m.voteSetMaj23.round);
      checkVoteType("voteSetMaj23.type", m.voteSetMaj23.type);
      validateBlockId(m.voteSetMaj23.blockId, "voteSetMaj23.blockId");
      return;
    case "voteSetBits":
      // (v0.34 checks no round here; a negative one simply matches nothing we hold)
      checkHeight("voteSetBits.height", m.voteSetBits.height, true);
      checkVoteType("voteSetBits.type", m.voteSetBits.type);
      validateBlockId(m.voteSetBits.blockId, "voteSetBits.blockId");
      checkBits("voteSetBits.votes", m.voteSetBits.votes, MAX_VOTES_COUNT);
      return;
  }
}

/** undefined when `m` passes v0.34's ValidateBasic, else a reason naming the field. */
export function consensusMessageProblem(m: ConsensusMessage): string | undefined {
  try {
    check(m);
    return undefined;
  } catch (error) {
    if (error instanceof TypesError) return error.message;
    throw error;
  }
}
