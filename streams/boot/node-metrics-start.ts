// The node's metrics boot step (instrumentation.prometheus): the peer layer's counters are kept
// in a late sink until the registry exists (the peer layer starts before the consensus loop the
// registry follows), then the metrics of both loops (node-metrics.ts) start and the sink attaches.
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { Logger } from "../../src/logger/index.js";
import { type LatePeerMetrics, latePeerMetricsSink } from "../../src/metrics/index.js";
import type { Stores } from "../../src/store/open-stores.js";
import type { Wal } from "../../src/wal/wal.js";
import type { MempoolNode } from "../mempool-node.js";
import type { NodeLifecycle } from "../node-lifecycle.js";
import { type NodeMetricsDeps, type NodeMetricsHandle, startNodeMetrics } from "../node-metrics.js";

/** The peer layer's metrics sink, or undefined when metrics are off. */
export function peerMetricsOf(config: NodeConfig): LatePeerMetrics | undefined {
  return config.instrumentation.prometheus ? latePeerMetricsSink() : undefined;
}

export async function startMetricsIfEnabled(parts: {
  config: NodeConfig;
  chainId: string;
  fold$: NodeMetricsDeps["consensusFold$"];
  mempool: MempoolNode;
  wal: Wal;
  stores: Stores;
  peerMetrics: LatePeerMetrics | undefined;
  life: Pick<NodeLifecycle, "onCleanup">;
  log: { metrics: Logger };
}): Promise<NodeMetricsHandle | undefined> {
  if (!parts.config.instrumentation.prometheus) return undefined;
  const metrics = await startNodeMetrics({
    config: parts.config,
    chainId: parts.chainId,
    consensusFold$: parts.fold$,
    mempool: parts.mempool,
    wal: parts.wal,
    blockTimeAt: async (h) => (await parts.stores.blockStore.loadBlockMeta(h))?.header?.time,
    logger: parts.log.metrics,
  });
  parts.life.onCleanup(() => metrics.stop());
  parts.peerMetrics?.attach(metrics.metrics.peers);
  return metrics;
}
