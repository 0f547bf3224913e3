// The mempool gossip reactor's state: the admitted txs in admission order (each numbered, with the
// peers that sent it to us) and one cursor per peer over
// them, as v0.34's per-peer broadcastTxRoutine walks the mempool's list.
import { Map as ImmutableMap } from "immutable";
import { GossipList } from "./gossip-list.js";

export type { GossipedTx } from "./gossip-list.js";

export interface MempoolGossipConfig {
  /** `mempool.broadcast`: false sends nothing (received txs are still checked and admitted). */
  readonly broadcast: boolean;
  /** `consensus.peer_gossip_sleep_duration` in ms: the wait when a peer is not ready for a tx. */
  readonly peerGossipSleepMs: number;
  /** Most txs in one message (1: v0.34's one tx per message). */
  readonly batchTxs: number;
  /**
   * Most messages in one send: a peer's walk hands the connection up to this many consecutive
   * messages at once, each still its own message on the wire (v0.34's one tx per message when
   * batchTxs is 1), so the fold, the send and its answer are paid once per group, not per tx.
   */
  readonly messagesPerSend: number;
  /** A send takes no further message once its messages hold this many bytes (one always goes). */
  readonly sendBytes: number;
  /**
   * Most bytes of one message: the channel's receive capacity, the size of one message of a
   * max_tx_bytes tx, so a peer that takes our largest tx takes every batch.
   */
  readonly batchMessageBytes: number;
  /**
   * How long a tx that peers sent us waits before we offer it to our other peers (0: at once, as
   * v0.34). Its sender gossips it to its own peers too, so where they are ours as well (a full
   * mesh: every testnet of a few validators) our relay is a copy each of them decrypts, decodes and
   * turns away; most txs are committed and gone from the pool before the hold ends, and are then
   * never relayed. A tx still pending after it is relayed as before, so a peer our sender does not
   * reach still gets it, only later. Txs from our own clients are never held.
   */
  readonly relayHoldMs: number;
}

export const DEFAULT_MEMPOOL_GOSSIP_CONFIG: MempoolGossipConfig = {
  broadcast: true,
  peerGossipSleepMs: 100,
  batchTxs: 1,
  messagesPerSend: 1,
  sendBytes: Number.POSITIVE_INFINITY,
  batchMessageBytes: Number.POSITIVE_INFINITY,
  relayHoldMs: 0,
};

/**
 * Where a peer's walk stands. idle: it has been offered every tx, waiting for the next admission;
 * sending: one tx is on its way (the answer says whether the connection took it); sleeping:
 * waiting out peer_gossip_sleep (peer too far behind, or its queue stayed full).
 */
export type PeerGossipStatus = "idle" | "sending" | "sleeping";

export interface PeerCursor {
  /** The next admission number to look at (while sending: the first one of the message). */
  readonly next: number;
  /** The peer's consensus height as last reported to us; undefined: not known, so it is sent. */
  readonly height: bigint | undefined;
  readonly status: PeerGossipStatus;
}

export interface MempoolGossipState {
  readonly config: MempoolGossipConfig;
  /** The admission number the next admitted tx gets. */
  readonly nextSeq: number;
  /**
   * The admitted txs still pending, in admission order, each with its admission number, one-tx
   * message and senders (gossip-list.ts); empty while there is no peer (nothing is kept for nobody:
   * the first peer brings the mempool's pending txs, the last one leaving clears the list).
   */
  readonly txs: GossipList;
  readonly peers: ImmutableMap<string, PeerCursor>;
  /**
   * Txs peers sent us, held for relayHoldMs before they join `txs` (numbered by `heldNextSeq`, in
   * the order they were admitted; empty while there is no peer or no hold). A tx that leaves the
   * pool while held leaves this list and is never relayed. Its entries' "message" is the tx alone:
   * the message is encoded at release.
   */
  readonly held: GossipList;
  readonly heldNextSeq: number;
  /**
   * The release timer's cut: when it fires, the held txs numbered below it go to `txs` (each has
   * waited at least one full relayHoldMs), and the cut moves to `heldNextSeq`.
   */
  readonly heldCut: number;
  /** A ScheduleRelayRelease is out and its RelayReleaseDue not yet folded. */
  readonly releaseArmed: boolean;
}

export function initialMempoolGossipState(
  config: MempoolGossipConfig = DEFAULT_MEMPOOL_GOSSIP_CONFIG,
): MempoolGossipState {
  return {
    config,
    nextSeq: 0,
    txs: GossipList.EMPTY,
    peers: ImmutableMap(),
    held: GossipList.EMPTY,
    heldNextSeq: 0,
    heldCut: 0,
    releaseArmed: false,
  };
}
