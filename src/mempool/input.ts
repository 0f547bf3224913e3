// What the mempool reducer folds. `type` strings are stable names, declared once here.
import type { TxSha256 } from "../wire/hashes.js";

/** A tx arrives from the RPC (`from` = "rpc") or from a peer (its node id). */
export interface TxSubmitted {
  type: "TxSubmitted";
  /** Correlates the answer with the waiting caller; unique per submission. */
  requestId: number;
  /** Upper-case hex sha256 of the tx, computed by the source. */
  hash: string;
  tx: Uint8Array;
  /** The sha256 `hash` was made from, when the source hashed this very tx (TxSha256.of). */
  sha256?: TxSha256;
  from: string;
  time: number;
}

/** One tx of a TxsSubmitted batch: what TxSubmitted carries, less its type and time. */
export interface TxSubmission {
  requestId: number;
  hash: string;
  tx: Uint8Array;
  sha256?: TxSha256;
  from: string;
}

/**
 * The txs that arrived during one turn of the event loop, in arrival order: folded as TxSubmitted
 * one after another would be, in one fold (per-fold and per-copy costs were most of an admission's).
 */
export interface TxsSubmitted {
  type: "TxsSubmitted";
  submissions: readonly TxSubmission[];
  /**
   * Txs a peer sent again that the mempool had already seen when they arrived (pending, in check,
   * cached or queued): turned away before admission, so only their sender is noted (never to be
   * gossiped back to it) and their cache entry refreshed, after the submissions, as a duplicate's
   * submission would. One already gone again by the fold is dropped.
   */
  resent?: readonly TxResent[];
  time: number;
}

/** A peer sent a tx the mempool had seen: its hash and the peer. */
export interface TxResent {
  hash: string;
  from: string;
}

/** CheckTx (type New) answered for a submitted tx. */
export interface CheckTxCompleted {
  type: "CheckTxCompleted";
  requestId: number;
  hash: string;
  tx: Uint8Array;
  /** The submission's sha256, carried through CheckTx so the admitted tx is not hashed again. */
  sha256?: TxSha256;
  from: string;
  code: number;
  gasWanted: bigint;
  time: number;
}

/** One answer of a CheckTxsCompleted batch: what CheckTxCompleted carries, less its type and time. */
export type CheckTxResult = Omit<CheckTxCompleted, "type" | "time">;

/** The answers to one RunCheckTxs, in the order sent (a tx whose CheckTx failed is left out). */
export interface CheckTxsCompleted {
  type: "CheckTxsCompleted";
  results: readonly CheckTxResult[];
  time: number;
}

/** A block was committed: its txs and their DeliverTx codes, in block order. */
export interface BlockCommitted {
  type: "BlockCommitted";
  height: bigint;
  txHashes: readonly string[];
  deliverTxCodes: readonly number[];
  time: number;
}

/**
 * A piece of a committed block's txs, in block order, ahead of the BlockCommitted that carries the
 * rest: they leave the pool and the cache learns their outcome, as BlockCommitted's txs do, so that
 * a block of tens of thousands of txs is folded a piece per turn of the event loop. Nothing else of
 * the block (height, expiry, recheck, the "txs available" notice) happens before BlockCommitted.
 */
export interface BlockTxsCommitted {
  type: "BlockTxsCommitted";
  height: bigint;
  txHashes: readonly string[];
  deliverTxCodes: readonly number[];
  time: number;
}

/** A recheck (CheckTx type Recheck) answered. */
export interface RecheckCompleted {
  type: "RecheckCompleted";
  /** The generation of the RunRecheck this answers. */
  generation: number;
  hash: string;
  code: number;
  time: number;
}

/**
 * Many recheck answers at once, in the order they were sent: after a block every remaining tx is
 * rechecked, and one fold per window of answers costs a fraction of one fold per answer.
 */
export interface RechecksCompleted {
  type: "RechecksCompleted";
  /** The generation of the RunRecheck these answer. */
  generation: number;
  results: readonly { hash: string; code: number }[];
  time: number;
}

/** `unsafe_flush_mempool`: every pending tx and the cache are dropped. */
export interface MempoolFlushed {
  type: "MempoolFlushed";
  time: number;
}

export type MempoolInput =
  | TxSubmitted
  | TxsSubmitted
  | CheckTxCompleted
  | CheckTxsCompleted
  | BlockTxsCommitted
  | BlockCommitted
  | RecheckCompleted
  | RechecksCompleted
  | MempoolFlushed;
