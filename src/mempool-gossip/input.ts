// What the mempool gossip reducer folds. Peer heights come in on the inputs about that peer
// (sampled from the consensus gossip's peer state by the wiring), so the reducer stays pure.

/** A peer that speaks the mempool channel joined: it is offered every pending tx, oldest first. */
export interface GossipPeerAdded {
  type: "GossipPeerAdded";
  peerId: string;
  peerHeight: bigint | undefined;
}

export interface GossipPeerRemoved {
  type: "GossipPeerRemoved";
  peerId: string;
}

/** The mempool admitted a tx (its GossipTx effect). */
export interface TxAdmitted {
  type: "TxAdmitted";
  hash: string;
  tx: Uint8Array;
  height: bigint;
  senders: readonly string[];
}

/** A peer sent a tx the mempool already holds (its NoteTxSender effect). */
export interface TxSenderNoted {
  type: "TxSenderNoted";
  hash: string;
  peerId: string;
}

/** Txs left the mempool (committed, evicted, flushed). */
export interface TxsLeftPool {
  type: "TxsLeftPool";
  hashes: readonly string[];
}

/** The answer to SendGossipTx: whether the peer's connection queued it. */
export interface GossipTxSendFinished {
  type: "GossipTxSendFinished";
  peerId: string;
  seq: number;
  delivered: boolean;
  peerHeight: bigint | undefined;
}

/** A peer's peer_gossip_sleep is over (ScheduleGossipSleep). */
export interface GossipSleepElapsed {
  type: "GossipSleepElapsed";
  peerId: string;
  peerHeight: bigint | undefined;
}

export type MempoolGossipInput =
  | GossipPeerAdded
  | GossipPeerRemoved
  | TxAdmitted
  | TxSenderNoted
  | TxsLeftPool
  | GossipTxSendFinished
  | GossipSleepElapsed;
