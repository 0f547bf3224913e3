// The bytes validators sign: uvarint(length) ‖ protobuf(CanonicalVote | CanonicalProposal)
// (types/canonical.go). Height and round are sfixed64 there, a zero BlockID is left out, the
// timestamp is always present and the chain id closes the message.

import { blockIdIsZero } from "./block-id.js";
import type { CanonicalBlockID } from "./generated/tendermint/types/canonical.js";
import { CanonicalProposal, CanonicalVote } from "./generated/tendermint/types/canonical.js";
import { type BlockID, type Proposal, SignedMsgType, type Vote } from "./generated/tendermint/types/types.js";
import { lengthPrefixed } from "./varint.js";

/** The canonical form of a BlockID, or undefined for the zero BlockID (so it is not encoded). */
export function canonicalBlockId(blockId: BlockID | undefined): CanonicalBlockID | undefined {
  if (blockId === undefined || blockIdIsZero(blockId)) return undefined;
  return {
    hash: blockId.hash,
    partSetHeader: { total: blockId.partSetHeader.total, hash: blockId.partSetHeader.hash },
  };
}

export function canonicalVote(chainId: string, vote: Vote): CanonicalVote {
  return {
    type: vote.type,
    height: vote.height,
    round: BigInt(vote.round),
    blockId: canonicalBlockId(vote.blockId),
    timestamp: vote.timestamp,
    chainId,
  };
}

export function canonicalProposal(chainId: string, proposal: Proposal): CanonicalProposal {
  return {
    // Always PROPOSAL, whatever the message claims (as CanonicalizeProposal does).
    type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
    height: proposal.height,
    round: BigInt(proposal.round),
    polRound: BigInt(proposal.polRound),
    blockId: canonicalBlockId(proposal.blockId),
    timestamp: proposal.timestamp,
    chainId,
  };
}

/** What a validator signs for a vote (reference §7.3). */
export function voteSignBytes(chainId: string, vote: Vote): Uint8Array {
  return lengthPrefixed(CanonicalVote.encode(canonicalVote(chainId, vote)).finish());
}

/** What the proposer signs for a proposal (reference §7.4). */
export function proposalSignBytes(chainId: string, proposal: Proposal): Uint8Array {
  return lengthPrefixed(CanonicalProposal.encode(canonicalProposal(chainId, proposal)).finish());
}
