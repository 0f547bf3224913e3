// What the p2p metrics need to know about a reactor message without decoding it: its type as
// v0.34 labels message_type (the Go proto type, "<package>_<Type>": consensus_Vote, mempool_Txs,
// p2p_PexRequest, types_EvidenceList), read from the outer oneof's first field number only, and
// how many txs a mempool message carries. Both walk at most the message's top levels, so they
// cost next to nothing beside the send/receive they are counted on; neither ever throws on a
// peer's bytes (a malformed message is "unknown": the channel check stops its sender anyway).

import {
  CHANNEL_BLOCKSYNC,
  CHANNEL_CONSENSUS_DATA,
  CHANNEL_CONSENSUS_STATE,
  CHANNEL_CONSENSUS_VOTE,
  CHANNEL_CONSENSUS_VOTE_SET_BITS,
  CHANNEL_EVIDENCE,
  CHANNEL_MEMPOOL,
  CHANNEL_PEX,
  CHANNEL_STATESYNC_CHUNK,
  CHANNEL_STATESYNC_SNAPSHOT,
} from "./channels.js";
import { oneTxOf } from "./mempool-wire.js";
import { ProtoDecodeError, ProtoReader, WIRE_LEN } from "./proto-reader.js";

/** The label of a message whose type cannot be told (unknown channel, empty or garbled oneof). */
export const UNKNOWN_MESSAGE_TYPE = "unknown";

const CONSENSUS = [
  "NewRoundStep",
  "NewValidBlock",
  "Proposal",
  "ProposalPOL",
  "BlockPart",
  "Vote",
  "HasVote",
  "VoteSetMaj23",
  "VoteSetBits",
].map((t) => `consensus_${t}`);
const BLOCKCHAIN = [
  "BlockRequest",
  "NoBlockResponse",
  "BlockResponse",
  "StatusRequest",
  "StatusResponse",
].map((t) => `blockchain_${t}`);
const STATESYNC = ["SnapshotsRequest", "SnapshotsResponse", "ChunkRequest", "ChunkResponse"].map(
  (t) => `statesync_${t}`,
);

/** Per channel: the label of oneof field n at index n-1. */
const VARIANT_LABELS = new Map<number, readonly string[]>([
  [CHANNEL_PEX, ["p2p_PexRequest", "p2p_PexAddrs"]],
  [CHANNEL_CONSENSUS_STATE, CONSENSUS],
  [CHANNEL_CONSENSUS_DATA, CONSENSUS],
  [CHANNEL_CONSENSUS_VOTE, CONSENSUS],
  [CHANNEL_CONSENSUS_VOTE_SET_BITS, CONSENSUS],
  [CHANNEL_MEMPOOL, ["mempool_Txs"]],
  [CHANNEL_BLOCKSYNC, BLOCKCHAIN],
  [CHANNEL_STATESYNC_SNAPSHOT, STATESYNC],
  [CHANNEL_STATESYNC_CHUNK, STATESYNC],
]);

/** The message_type label of a reactor message on a channel. */
export function messageTypeLabel(channelId: number, message: Uint8Array): string {
  // Evidence travels as a bare EvidenceList, not in a oneof wrapper.
  if (channelId === CHANNEL_EVIDENCE) return "types_EvidenceList";
  const labels = VARIANT_LABELS.get(channelId);
  if (labels === undefined || message.length === 0) return UNKNOWN_MESSAGE_TYPE;
  // Every variant's field number is below 16, so its key is the first byte alone; a key of more
  // than one byte is a field we do not know.
  const key = message[0]!;
  if (key >= 0x80) return UNKNOWN_MESSAGE_TYPE;
  return labels[(key >> 3) - 1] ?? UNKNOWN_MESSAGE_TYPE;
}

/**
 * The txs in a tendermint.mempool.Message{txs: Txs{repeated bytes txs = 1}}: the count of field 1
 * entries in the Txs; 0 for anything else or anything malformed.
 */
export function mempoolTxCount(message: Uint8Array): number {
  // v0.34's one-tx message (mempool-wire.ts's shape check), without the readers' objects.
  return oneTxOf(message) !== undefined ? 1 : mempoolTxCountGeneral(message);
}

/** mempoolTxCount by the field walk alone (tests hold the two to one answer). */
export function mempoolTxCountGeneral(message: Uint8Array): number {
  try {
    const outer = new ProtoReader(message, "tendermint.mempool.Message");
    let count = 0;
    while (!outer.done) {
      const { field, wire } = outer.tag();
      if (field !== 1 || wire !== WIRE_LEN) {
        outer.skip(wire);
        continue;
      }
      const txs = new ProtoReader(outer.lengthDelimited(), "tendermint.mempool.Txs");
      while (!txs.done) {
        const tag = txs.tag();
        if (tag.field === 1 && tag.wire === WIRE_LEN) count++;
        txs.skip(tag.wire);
      }
    }
    return count;
  } catch (error) {
    if (error instanceof ProtoDecodeError) return 0;
    throw error;
  }
}
