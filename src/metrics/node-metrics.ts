// Every metric of a node in one registry: v0.34's four sets under `namespace`, each labelled with
// the chain id as v0.34 labels them, and rxbft's own.
import { Registry } from "prom-client";
import { type BlocksyncMetrics, createBlocksyncMetrics } from "./blocksync-metrics.js";
import { type ConsensusMetrics, createConsensusMetrics } from "./consensus-metrics.js";
import { createMempoolMetrics, type MempoolMetrics } from "./mempool-metrics.js";
import { createP2pMetrics, type P2pMetrics, type PeerMetricsSink, peerMetricsSink } from "./p2p-metrics.js";
import { createRxbftMetrics, type RxbftMetrics } from "./rxbft-metrics.js";
import { createStateMetrics, type StateMetrics } from "./state-metrics.js";

export interface NodeMetrics {
  readonly registry: Registry;
  readonly consensus: ConsensusMetrics;
  readonly mempool: MempoolMetrics;
  readonly p2p: P2pMetrics;
  readonly state: StateMetrics;
  readonly rxbft: RxbftMetrics;
  readonly blocksync: BlocksyncMetrics;
  /** What the peer layer calls (src/metrics/p2p-metrics.ts). */
  readonly peers: PeerMetricsSink;
}

export function createNodeMetrics(options: { namespace: string; chainId: string }): NodeMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ chain_id: options.chainId });
  const consensus = createConsensusMetrics(registry, options.namespace);
  const mempool = createMempoolMetrics(registry, options.namespace);
  const p2p = createP2pMetrics(registry, options.namespace);
  return {
    registry,
    consensus,
    mempool,
    p2p,
    state: createStateMetrics(registry, options.namespace),
    rxbft: createRxbftMetrics(registry),
    blocksync: createBlocksyncMetrics(registry),
    peers: peerMetricsSink(p2p, { activeOutboundConnections: mempool.activeOutboundConnections }),
  };
}
