// The gossip reducer's effects: messages to one peer or to all (the wiring encodes them and picks
// the channel v0.34 sends each variant on), a block-store read for catching a peer up, the next
// tick, and a peer to disconnect for lying.
import type { ConsensusMessage } from "./message.js";

export interface SendToPeer {
  readonly type: "SendToPeer";
  readonly peerId: string;
  readonly message: ConsensusMessage;
}

/** To every peer (NewRoundStep, NewValidBlock, HasVote: v0.34's broadcasts on the State channel). */
export interface BroadcastToPeers {
  readonly type: "BroadcastToPeers";
  readonly message: ConsensusMessage;
}

/** Read the committed block `height` (its parts and commit); answered by StoredBlockLoaded/Missing. */
export interface LoadStoredBlock {
  readonly type: "LoadStoredBlock";
  readonly height: bigint;
}

/** Feed GossipTicked at `atMs` (replaces any tick asked for before). */
export interface ScheduleTick {
  readonly type: "ScheduleTick";
  readonly atMs: number;
}

export interface ReportPeer {
  readonly type: "ReportPeer";
  readonly peerId: string;
  readonly reason: string;
}

export type GossipEffect = SendToPeer | BroadcastToPeers | LoadStoredBlock | ScheduleTick | ReportPeer;
