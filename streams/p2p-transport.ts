// The transport the peer layer uses, from the node's config: v0.34's channels (PEX's only when
// p2p.pex is on; the mempool channel sized by our max_tx_bytes), the MConnection settings of
// [p2p], and upgradeConnection (src/p2p/upgrade.ts).

import type { NodeConfig } from "../src/config/config-schema.js";
import type { PeerMetricsSink } from "../src/metrics/index.js";
import { v034ChannelDescriptors } from "../src/p2p/channels.js";
import { DEFAULT_MCONNECTION_CONFIG } from "../src/p2p/mconnection/mconnection.js";
import { upgradeConnection } from "../src/p2p/upgrade.js";
import type { PreparedNode } from "./boot/prepare-home.js";
import { type PeerLayer, type PeerTransport, startPeerLayer } from "./p2p-layer.js";

export function peerTransportOf(config: NodeConfig): PeerTransport {
  return {
    upgrade: upgradeConnection,
    channels: v034ChannelDescriptors({ pex: config.p2p.pex, maxTxBytes: config.mempool.max_tx_bytes }),
    mconnection: {
      ...DEFAULT_MCONNECTION_CONFIG,
      sendRate: config.p2p.send_rate,
      recvRate: config.p2p.recv_rate,
      maxPacketMsgPayloadSize: config.p2p.max_packet_msg_payload_size,
      flushThrottleMs: config.p2p.flush_throttle_timeout,
    },
  };
}

export interface NodePeerLayerOptions {
  /** the node's p2p metrics (metrics.peers when instrumentation.prometheus is on); default none */
  metrics?: PeerMetricsSink | undefined;
  /** our own exception in the switch or PEX: the node halts with this message */
  onFault?: (reason: string) => void;
  /** Keep peers' joins and messages until PeerLayer.startDelivery() (see PeerLayerOptions). */
  holdDeliveries?: boolean;
}

/** The node's peer layer over its prepared home (the one call streams/node.ts makes). */
export function startNodePeerLayer(
  prepared: PreparedNode,
  chainId: string,
  appVersion: bigint,
  options: NodePeerLayerOptions = {},
): Promise<PeerLayer> {
  return startPeerLayer(prepared, {
    chainId,
    appVersion,
    transport: peerTransportOf(prepared.config),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.onFault ? { onFault: options.onFault } : {}),
    ...(options.holdDeliveries ? { holdDeliveries: true } : {}),
  });
}
