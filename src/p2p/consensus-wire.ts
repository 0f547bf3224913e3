// The consensus channels (0x20 State, 0x21 Data, 0x22 Vote, 0x23 VoteSetBits): every
// tendermint.consensus.Message decoded with its size bounded and checked as v0.34's ValidateBasic
// (decodeConsensusWire, for the gossip reactor), the channel v0.34 sends each variant on, and a
// peer's Proposal, BlockPart and Vote decoded into the consensus inputs the verification step
// takes (decodeConsensusMessage; the reactor's variants come back there as `other`).
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { Message } from "../wire/generated/tendermint/consensus/types.js";
import { type ConsensusMessage, consensusMessageProblem } from "./consensus-message-check.js";

export type { ConsensusMessage };

export const CHANNEL_STATE = 0x20;
export const CHANNEL_DATA = 0x21;
export const CHANNEL_VOTE = 0x22;
export const CHANNEL_VOTE_SET_BITS = 0x23;
/** recv message capacity of all four consensus channels (v0.34 GetChannels). */
export const CONSENSUS_RECV_MESSAGE_CAPACITY = 1048576;

/** The channel v0.34 sends each variant on (p2p-v034.md §6.1). */
export function channelOf(message: ConsensusMessage): number {
  switch (message.$case) {
    case "newRoundStep":
    case "newValidBlock":
    case "hasVote":
    case "voteSetMaj23":
      return CHANNEL_STATE;
    case "proposal":
    case "proposalPol":
    case "blockPart":
      return CHANNEL_DATA;
    case "vote":
      return CHANNEL_VOTE;
    case "voteSetBits":
      return CHANNEL_VOTE_SET_BITS;
  }
}

export function encodeConsensusMessage(message: ConsensusMessage): Uint8Array {
  return Message.encode({ sum: message }).finish();
}

export type DecodedConsensusWire =
  | { kind: "ok"; message: ConsensusMessage; channelMatches: boolean }
  | { kind: "invalid"; reason: string };

/**
 * A message received on `channel`: bounded, decoded, ValidateBasic'd. A variant on a channel it is
 * not sent on is returned with channelMatches false (v0.34 only logs that; no disconnect).
 */
export function decodeConsensusWire(bytes: Uint8Array, channel: number): DecodedConsensusWire {
  const at = `consensus channel 0x${channel.toString(16)}`;
  if (bytes.length > CONSENSUS_RECV_MESSAGE_CAPACITY)
    return {
      kind: "invalid",
      reason: `${at}: message of ${bytes.length} bytes exceeds ${CONSENSUS_RECV_MESSAGE_CAPACITY}`,
    };
  let message: Message;
  try {
    message = Message.decode(bytes);
  } catch (error) {
    return { kind: "invalid", reason: `${at}: undecodable message: ${(error as Error).message}` };
  }
  const sum = message.sum;
  if (sum === undefined) return { kind: "invalid", reason: `${at}: message with no known variant` };
  const problem = consensusMessageProblem(sum);
  if (problem !== undefined) return { kind: "invalid", reason: `${at}: invalid ${sum.$case}: ${problem}` };
  return { kind: "ok", message: sum, channelMatches: channelOf(sum) === channel };
}

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
