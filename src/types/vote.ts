// Votes: makers and the facts consensus asks of them. The sign bytes live in wire/sign-bytes.ts.

import { blockIdIsZero, zeroBlockId } from "../wire/block-id.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { type BlockID, SignedMsgType, type Vote } from "../wire/generated/tendermint/types/types.js";

export type { Vote };
export { SignedMsgType };

export interface VoteFields {
  type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE | SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT;
  height: bigint;
  round: number;
  /** Omit (or pass the zero BlockID) for a nil vote. */
  blockId?: BlockID;
  timestamp: Timestamp;
  validatorAddress: Uint8Array;
  validatorIndex: number;
  /** Empty until signed. */
  signature?: Uint8Array;
}

export function makeVote(fields: VoteFields): Vote {
  return {
    type: fields.type,
    height: fields.height,
    round: fields.round,
    blockId: fields.blockId ?? zeroBlockId(),
    timestamp: fields.timestamp,
    validatorAddress: fields.validatorAddress,
    validatorIndex: fields.validatorIndex,
    signature: fields.signature ?? new Uint8Array(0),
  };
}

export function withSignature(vote: Vote, signature: Uint8Array): Vote {
  return { ...vote, signature };
}

/** A vote for nil: its BlockID is zero. */
export function isNilVote(vote: Vote): boolean {
  return blockIdIsZero(vote.blockId);
}

export function isVoteType(
  type: number,
): type is SignedMsgType.SIGNED_MSG_TYPE_PREVOTE | SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT {
  return type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE || type === SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT;
}
