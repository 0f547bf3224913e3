// Block sync's progress under `rxbft_blocksync_` (rxbft's own: v0.34 has only fast_syncing, which
// the consensus set carries and block sync now sets): where the node is, where its peers are, how
// fast blocks come and how long is left, updated at each progress interval while syncing.
import { Gauge, type Registry } from "prom-client";

export interface BlocksyncMetrics {
  height: Gauge;
  targetHeight: Gauge;
  blocksPerSecond: Gauge;
  etaSeconds: Gauge;
}

export function createBlocksyncMetrics(registry: Registry): BlocksyncMetrics {
  const registers = [registry];
  return {
    height: new Gauge({
      name: "rxbft_blocksync_height",
      help: "Last height applied by block sync.",
      registers,
    }),
    targetHeight: new Gauge({
      name: "rxbft_blocksync_target_height",
      help: "Highest height the peers reported during block sync.",
      registers,
    }),
    blocksPerSecond: new Gauge({
      name: "rxbft_blocksync_blocks_per_second",
      help: "Blocks applied per second by block sync over the last 30 s.",
      registers,
    }),
    etaSeconds: new Gauge({
      name: "rxbft_blocksync_eta_seconds",
      help: "Estimated seconds until block sync reaches the target height at the current rate (-1: unknown).",
      registers,
    }),
  };
}
