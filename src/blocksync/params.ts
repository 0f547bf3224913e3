// The block pool's windows and timers. Defaults are v0.34's blockchain/v0 constants (reference
// p2p-v034.md §6.4); tests shrink them. Times are milliseconds of the input's clock.

export interface BlockPoolParams {
  /** Heights requested ahead of the next one to apply (v0.34 maxTotalRequesters). */
  readonly maxRequests: number;
  /** Requests in flight to one peer (v0.34 maxPendingRequestsPerPeer). */
  readonly maxRequestsPerPeer: number;
  /** A request unanswered this long goes to another peer (v0.34 requestRetrySeconds). */
  readonly requestRetryMs: number;
  /** A peer with requests in flight that sends no block for this long is dropped (v0.34 peerTimeout). */
  readonly peerTimeoutMs: number;
  /**
   * A peer with requests in flight for a whole rate window that delivered fewer bytes per second
   * than this is dropped (v0.34 minRecvRate).
   */
  readonly minRecvBytesPerSecond: number;
  /** The window the receive rate is measured over. */
  readonly rateWindowMs: number;
  /** How often every peer is asked for its status while syncing (v0.34 statusUpdateIntervalSeconds). */
  readonly statusIntervalMs: number;
  /** How often the switch rule is checked (v0.34 switchToConsensusIntervalSeconds). */
  readonly switchCheckMs: number;
  /** Without a block yet, the switch rule waits this long (v0.34's 5 s in IsCaughtUp). */
  readonly switchWaitMs: number;
  /** A block nobody asked for this far from the next height is a protocol breach (v0.34's 100). */
  readonly maxUnaskedDistance: bigint;
  /**
   * Held blocks whose certificates are checked ahead of their turn, while earlier ones apply
   * (beyond v0.34, which checks one block at a time); 0 checks each only at its turn.
   */
  readonly checkAhead: number;
}

export const DEFAULT_BLOCK_POOL_PARAMS: BlockPoolParams = Object.freeze({
  maxRequests: 600,
  maxRequestsPerPeer: 20,
  requestRetryMs: 30_000,
  peerTimeoutMs: 15_000,
  minRecvBytesPerSecond: 7680,
  rateWindowMs: 10_000,
  statusIntervalMs: 10_000,
  switchCheckMs: 1_000,
  switchWaitMs: 5_000,
  maxUnaskedDistance: 100n,
  checkAhead: 16,
});
