// The consensus channels' hand-off (0x21 Data, 0x22 Vote): a peer's Proposal, BlockPart and Vote
// messages decoded into the consensus inputs the verification step takes, and our broadcasts
// encoded onto the channel v0.34 sends them on. The other variants (NewRoundStep, HasVote, ...)
// are the consensus reactor's (a later issue): reported as `other`, never an error.
import type { ConsensusEffect } from "../consensus/effect.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { Message } from "../wire/generated/tendermint/consensus/types.js";

export const CHANNEL_DATA = 0x21;
export const CHANNEL_VOTE = 0x22;

type Decoded =
  | {
      kind: "proposal";
      input: {
        type: "ProposalReceived";
        time: Timestamp;
        proposal: NonNullable<Extract<Message["sum"], { $case: "proposal" }>["proposal"]["proposal"]>;
        from: string;
      };
    }
  | {
      kind: "blockPart";
      input: {
        type: "BlockPartReceived";
        time: Timestamp;
        height: bigint;
        round: number;
        part: Extract<Message["sum"], { $case: "blockPart" }>["blockPart"]["part"];
        from: string;
      };
    }
  | {
      kind: "vote";
      input: {
        type: "VoteReceived";
        time: Timestamp;
        vote: NonNullable<Extract<Message["sum"], { $case: "vote" }>["vote"]["vote"]>;
        from: string;
      };
    }
  | { kind: "other"; variant: string }
  | { kind: "invalid"; reason: string };

export function decodeConsensusMessage(bytes: Uint8Array, from: string, time: Timestamp): Decoded {
  let message: Message;
  try {
    message = Message.decode(bytes);
  } catch (error) {
    return { kind: "invalid", reason: `undecodable consensus message: ${(error as Error).message}` };
  }
  const sum = message.sum;
  if (sum === undefined) return { kind: "invalid", reason: "consensus message with no known variant" };
  switch (sum.$case) {
    case "proposal":
      return {
        kind: "proposal",
        input: { type: "ProposalReceived", time, proposal: sum.proposal.proposal, from },
      };
    case "blockPart":
      return {
        kind: "blockPart",
        input: {
          type: "BlockPartReceived",
          time,
          height: sum.blockPart.height,
          round: sum.blockPart.round,
          part: sum.blockPart.part,
          from,
        },
      };
    case "vote":
      if (sum.vote.vote === undefined) return { kind: "invalid", reason: "vote message without a vote" };
      return { kind: "vote", input: { type: "VoteReceived", time, vote: sum.vote.vote, from } };
    default:
      return { kind: "other", variant: sum.$case };
  }
}

type Broadcast = Extract<
  ConsensusEffect,
  { type: "BroadcastVote" | "BroadcastProposal" | "BroadcastBlockPart" }
>;

/** Our broadcast as v0.34 sends it: proposals and block parts on Data, votes on Vote. */
export function encodeBroadcast(effect: Broadcast): { channel: number; bytes: Uint8Array } {
  switch (effect.type) {
    case "BroadcastProposal":
      return {
        channel: CHANNEL_DATA,
        bytes: Message.encode({
          sum: { $case: "proposal", proposal: { proposal: effect.proposal } },
        }).finish(),
      };
    case "BroadcastBlockPart":
      return {
        channel: CHANNEL_DATA,
        bytes: Message.encode({
          sum: {
            $case: "blockPart",
            blockPart: { height: effect.height, round: effect.round, part: effect.part },
          },
        }).finish(),
      };
    case "BroadcastVote":
      return {
        channel: CHANNEL_VOTE,
        bytes: Message.encode({ sum: { $case: "vote", vote: { vote: effect.vote } } }).finish(),
      };
  }
}
