// The mempool's state: pending txs in arrival order, the cache of recently seen tx hashes,
// and the bookkeeping of rechecks and the once-per-height "txs available" notice.
import type { TxDigests } from "../wire/hashes.js";
import { TxCache } from "./cache.js";
import { VersionedMap } from "./versioned-map.js";

export interface MempoolConfig {
  /** Maximum number of pending txs (`mempool.size`). */
  size: number;
  /** Maximum total bytes of pending txs (`mempool.max_txs_bytes`). */
  maxTxsBytes: number;
  /** Maximum bytes of one tx (`mempool.max_tx_bytes`). */
  maxTxBytes: number;
  /** Hashes remembered to refuse duplicates (`mempool.cache_size`; 0 disables the cache). */
  cacheSize: number;
  /** Keep txs that failed CheckTx or DeliverTx in the cache (`keep-invalid-txs-in-cache`). */
  keepInvalidTxsInCache: boolean;
  /** Recheck the remaining txs after every block (`mempool.recheck`). */
  recheck: boolean;
  /** Drop txs older than this many blocks (`ttl-num-blocks`; 0 = never). */
  ttlNumBlocks: number;
  /** Drop txs older than this many milliseconds (`ttl-duration`; 0 = never). */
  ttlDurationMs: number;
}

export const DEFAULT_MEMPOOL_CONFIG: MempoolConfig = {
  size: 5000,
  maxTxsBytes: 1073741824,
  maxTxBytes: 1048576,
  cacheSize: 10000,
  keepInvalidTxsInCache: false,
  recheck: true,
  ttlNumBlocks: 0,
  ttlDurationMs: 0,
};

export interface MempoolTx {
  /** Upper-case hex sha256 of the tx: the key of the pool and of the cache. */
  hash: string;
  tx: Uint8Array;
  /**
   * The tx's sha256 and data-hash leaf, hashed as it entered the pool (one tx at a time, while
   * admissions are spread over time), so that a proposal reaping tens of thousands of txs does
   * not hash them all at once.
   */
  digests: TxDigests;
  gasWanted: bigint;
  /** Height of the last committed block when the tx was added (for ttl-num-blocks). */
  height: bigint;
  /** Time the tx was added, in ms (for ttl-duration). */
  addedAtMs: number;
  /** Peers that sent us this tx: it is never gossiped back to them. */
  senders: readonly string[];
}

/** A tx whose CheckTx is running. */
export interface CheckingTx {
  /** The tx was committed in a block while its CheckTx ran: it must not be added afterwards. */
  committed: boolean;
  /** Peers that sent it so far (a second peer may send it while CheckTx runs). */
  senders: readonly string[];
}

export interface MempoolState {
  config: MempoolConfig;
  /** Height of the last committed block the mempool was updated with. */
  height: bigint;
  /** Pending txs in arrival order (a VersionedMap: O(1) plain-JS operations, persistent). */
  txs: VersionedMap<MempoolTx>;
  /** Sum of the pending txs' sizes. */
  txsBytes: number;
  /** Hashes admitted or being checked, oldest first (an LRU: a hit refreshes the entry). */
  cache: TxCache;
  /**
   * Txs whose CheckTx (type New) has not answered yet, with who sent them meanwhile.
   */
  checking: VersionedMap<CheckingTx>;
  /**
   * The recheck after the last block: its generation (bumped by every block and flush, so answers
   * of an earlier one are stale) and how many of its answers are still to come. A count, not the
   * set of hashes: the set was rebuilt from the whole remaining pool at every block, inside the
   * mempool update that holds the main thread. Within one generation a tx leaves the pool only
   * through its own recheck answer, so a current answer for a pooled tx is counted exactly once.
   */
  recheck: { generation: number; pending: number };
  /** Whether the "txs available" notice was already given for this height. */
  notifiedTxsAvailable: boolean;
}

export function initialMempoolState(config: MempoolConfig, height: bigint): MempoolState {
  return {
    config,
    height,
    txs: VersionedMap.empty(),
    txsBytes: 0,
    cache: TxCache.EMPTY,
    checking: VersionedMap.empty(),
    recheck: { generation: 0, pending: 0 },
    notifiedTxsAvailable: false,
  };
}
