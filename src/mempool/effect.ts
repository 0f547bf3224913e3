// What the mempool reducer asks the world to do. Handlers in streams/ carry these out.
import type { TxSha256 } from "../wire/hashes.js";
import type { MempoolRefusal } from "./errors.js";

/** Run CheckTx (type New) on the mempool connection; the answer comes back as CheckTxCompleted. */
export interface RunCheckTx {
  type: "RunCheckTx";
  requestId: number;
  hash: string;
  tx: Uint8Array;
  /** Handed back with the answer (CheckTxCompleted), for the admitted tx's digests. */
  sha256?: TxSha256;
  from: string;
}

/** Run CheckTx (type New) for each of a batch's new txs; the answers come back as one CheckTxsCompleted. */
export interface RunCheckTxs {
  type: "RunCheckTxs";
  txs: readonly { requestId: number; hash: string; tx: Uint8Array; sha256?: TxSha256; from: string }[];
}

/** Recheck the remaining txs (type Recheck) after a block; answers come back as RechecksCompleted, a window at a time. */
export interface RunRecheck {
  type: "RunRecheck";
  height: bigint;
  /** The recheck's generation: its answers carry it back, and answers of another are stale. */
  generation: number;
  txs: readonly { hash: string; tx: Uint8Array }[];
}

/** The outcome for a waiting caller (broadcast_tx_sync/commit, or a peer's tx). */
export interface AdmissionDecided {
  type: "AdmissionDecided";
  requestId: number;
  hash: string;
  /** added: in the pool; refused: by a mempool rule before or after CheckTx; invalid: CheckTx code ≠ 0. */
  outcome:
    | { kind: "added" }
    | { kind: "refused"; refusal: MempoolRefusal }
    | { kind: "invalid"; code: number };
}

/** Send an admitted tx to peers, except those it came from. */
export interface GossipTx {
  type: "GossipTx";
  hash: string;
  tx: Uint8Array;
  /** Height of the last committed block when it was admitted: peers far behind wait (v0.34). */
  height: bigint;
  exceptPeers: readonly string[];
}

/**
 * Other peers sent txs the pool already holds: never gossip them back to those peers either. One
 * effect per fold with every such sender it noted, in order: one gossip fold for all of them.
 */
export interface NoteTxSenders {
  type: "NoteTxSenders";
  notes: readonly { readonly hash: string; readonly peerId: string }[];
}

/** Pending txs left the pool in a committed block: gossip stops offering them. */
export interface StopGossipingTxs {
  type: "StopGossipingTxs";
  hashes: readonly string[];
}

/** Txs are waiting: consensus may propose (once per height, for create_empty_blocks = false). */
export interface TxsAvailable {
  type: "TxsAvailable";
  height: bigint;
}

/** Txs dropped without a caller waiting (failed recheck, ttl, flush), for logs and metrics. */
export interface TxsEvicted {
  type: "TxsEvicted";
  reason: "recheck-failed" | "ttl-expired" | "flushed";
  hashes: readonly string[];
}

export type MempoolEffect =
  | RunCheckTx
  | RunCheckTxs
  | RunRecheck
  | AdmissionDecided
  | GossipTx
  | NoteTxSenders
  | StopGossipingTxs
  | TxsAvailable
  | TxsEvicted;
