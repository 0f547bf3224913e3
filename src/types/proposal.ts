// Proposals: a proposer's signed claim that a block (by BlockID) is its value for a round.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { type BlockID, type Proposal, SignedMsgType } from "../wire/generated/tendermint/types/types.js";

export type { Proposal };

export interface ProposalFields {
  height: bigint;
  round: number;
  /** The round of the proof-of-lock the proposer carries, −1 for none. */
  polRound: number;
  blockId: BlockID;
  timestamp: Timestamp;
  signature?: Uint8Array;
}

export function makeProposal(fields: ProposalFields): Proposal {
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
    height: fields.height,
    round: fields.round,
    polRound: fields.polRound,
    blockId: fields.blockId,
    timestamp: fields.timestamp,
    signature: fields.signature ?? new Uint8Array(0),
  };
}
