// What the mempool gossip reducer folds. Peer heights come in on the inputs about that peer
// (sampled from the consensus gossip's peer state by the wiring), so the reducer stays pure.

/** A tx pending in the mempool, as the mempool holds it. */
export interface PooledTx {
  readonly hash: string;
  readonly tx: Uint8Array;
  /** Height of the last committed block when it was admitted. */
  readonly height: bigint;
  /** Peers that sent it to us. */
  readonly senders: readonly string[];
}

/** A peer that speaks the mempool channel joined: it is offered every pending tx, oldest first. */
export interface GossipPeerAdded {
  type: "GossipPeerAdded";
  peerId: string;
  peerHeight: bigint | undefined;
  /**
   * The mempool's pending txs in admission order when the peer joined. The reducer keeps no list
   * while it has no peer (a lone validator pays nothing per admitted tx), so the first peer's walk
   * starts from this; with peers already connected the reducer's own list is current and this is
   * not read.
   */
  pool: readonly PooledTx[];
}

export interface GossipPeerRemoved {
  type: "GossipPeerRemoved";
  peerId: string;
}

/** A tx the mempool admitted (its GossipTx effect). */
export interface AdmittedTx {
  readonly hash: string;
  readonly tx: Uint8Array;
  readonly height: bigint;
  readonly senders: readonly string[];
}

/**
 * The mempool admitted txs, in admission order: the GossipTx effects of one mempool fold (a
 * CheckTx round answers a whole turn's submissions at once), folded together as they would be one
 * by one, but for one difference: the idle peers are woken once, so a peer gets all of them in one
 * send (in the same order) instead of the first alone and the rest after its answer.
 */
export interface TxsAdmitted {
  type: "TxsAdmitted";
  txs: readonly AdmittedTx[];
}

/** Peers sent txs the mempool already holds (its NoteTxSenders effect), in order. */
export interface TxSendersNoted {
  type: "TxSendersNoted";
  notes: readonly { readonly hash: string; readonly peerId: string }[];
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
  /** The last admission number the message carried (SendGossipTx's `through`). */
  through: number;
  delivered: boolean;
  peerHeight: bigint | undefined;
}

/** A peer's peer_gossip_sleep is over (ScheduleGossipSleep). */
export interface GossipSleepElapsed {
  type: "GossipSleepElapsed";
  peerId: string;
  peerHeight: bigint | undefined;
}

/** The relay hold's timer fired (ScheduleRelayRelease): the older held txs are offered to peers. */
export interface RelayReleaseDue {
  type: "RelayReleaseDue";
}

export type MempoolGossipInput =
  | GossipPeerAdded
  | GossipPeerRemoved
  | TxsAdmitted
  | TxSendersNoted
  | TxsLeftPool
  | GossipTxSendFinished
  | GossipSleepElapsed
  | RelayReleaseDue;
