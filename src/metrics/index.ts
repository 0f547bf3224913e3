// The metrics module: CometBFT v0.34's four metric sets (consensus, mempool, p2p, state) under the
// configured namespace, rxbft's own under rxbft_, the pure figures computed per committed block,
// and the Prometheus endpoint. The values are set by projections in streams/projections/metrics-*.ts
// (taps on the loops' folds and effects), never from inside a reducer.
export { type BlocksyncMetrics, createBlocksyncMetrics } from "./blocksync-metrics.js";
export { commitFigures, prevoteDelays } from "./commit-figures.js";
export { MetricsError } from "./errors.js";
export {
  LATE_PEER_METRICS_MAX_ENTRIES,
  type LatePeerMetrics,
  latePeerMetricsSink,
} from "./late-peer-metrics.js";
export { type MetricsServerHandle, startMetricsServer } from "./metrics-server.js";
export { createNodeMetrics, type NodeMetrics } from "./node-metrics.js";
export { NO_PEER_METRICS, type PeerMetricsSink } from "./p2p-metrics.js";
