// A cheap structural check of a reassembled reactor message before any reactor sees it: the
// bytes must be well-formed protobuf, and on v0.34's own channels the outer message must carry
// one of that channel's known oneof variants (an empty or unknown oneof makes a Go node stop the
// peer). The reactors still decode fully; this only keeps garbage from reaching them.

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

/** The oneof field numbers of each channel's message type (evidence: EvidenceList.evidence = 1). */
const KNOWN_VARIANTS = new Map<number, { type: string; fields: readonly number[] }>([
  [CHANNEL_PEX, { type: "tendermint.p2p.Message", fields: [1, 2] }],
  [CHANNEL_CONSENSUS_STATE, { type: "tendermint.consensus.Message", fields: [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
  [CHANNEL_CONSENSUS_DATA, { type: "tendermint.consensus.Message", fields: [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
  [CHANNEL_CONSENSUS_VOTE, { type: "tendermint.consensus.Message", fields: [1, 2, 3, 4, 5, 6, 7, 8, 9] }],
  [
    CHANNEL_CONSENSUS_VOTE_SET_BITS,
    { type: "tendermint.consensus.Message", fields: [1, 2, 3, 4, 5, 6, 7, 8, 9] },
  ],
  [CHANNEL_MEMPOOL, { type: "tendermint.mempool.Message", fields: [1] }],
  [CHANNEL_EVIDENCE, { type: "tendermint.types.EvidenceList", fields: [1] }],
  [CHANNEL_BLOCKSYNC, { type: "tendermint.blockchain.Message", fields: [1, 2, 3, 4, 5] }],
  [CHANNEL_STATESYNC_SNAPSHOT, { type: "tendermint.statesync.Message", fields: [1, 2, 3, 4] }],
  [CHANNEL_STATESYNC_CHUNK, { type: "tendermint.statesync.Message", fields: [1, 2, 3, 4] }],
]);

/** Why a message on this channel is garbage, or undefined. Channels we do not know pass. */
export function channelMessageProblem(channelId: number, message: Uint8Array): string | undefined {
  // v0.34's one-tx mempool message, most of what a full-mesh node receives: well-formed, with its
  // one variant, without two readers, a tag object per field and a view per level.
  if (channelId === CHANNEL_MEMPOOL && oneTxOf(message) !== undefined) return undefined;
  return channelMessageProblemGeneral(channelId, message);
}

/** channelMessageProblem by the field walk alone (tests hold the two to one answer). */
export function channelMessageProblemGeneral(channelId: number, message: Uint8Array): string | undefined {
  const known = KNOWN_VARIANTS.get(channelId);
  if (known === undefined) return undefined;
  let variants = 0;
  try {
    const reader = new ProtoReader(message, known.type);
    while (!reader.done) {
      const { field, wire } = reader.tag();
      if (known.fields.includes(field)) {
        reader.expect(field, wire, WIRE_LEN);
        walk(new ProtoReader(reader.lengthDelimited(), `${known.type} field ${field}`));
        variants++;
      } else reader.skip(wire);
    }
  } catch (error) {
    if (error instanceof ProtoDecodeError) return `undecodable ${known.type}: ${error.message}`;
    throw error;
  }
  // An empty EvidenceList is valid protobuf; an empty oneof is "unknown message type".
  if (variants === 0 && channelId !== CHANNEL_EVIDENCE) return `${known.type} has no known variant`;
  return undefined;
}

function walk(reader: ProtoReader): void {
  while (!reader.done) reader.skip(reader.tag().wire);
}
