// net_info from the peer layer: every live peer with its NodeInfo, direction, remote IP and
// connection status. The status is written in v0.34's JSON shape (Go field names, 64-bit
// integers as strings), which both RPC forms print unchanged.

import type { ChannelStatus, FlowStatus, NodeInfo } from "../../src/p2p/types.js";
import type { NetInfoResult, NodeInfoResult } from "../../src/rpc/json/index.js";
import type { PeersView } from "../p2p-layer.js";

const int64 = (n: number) => String(Math.trunc(n));

function flowJson(f: FlowStatus) {
  return {
    Start: f.start,
    Bytes: int64(f.bytes),
    Samples: int64(f.samples),
    InstRate: int64(f.instRate),
    CurRate: int64(f.curRate),
    AvgRate: int64(f.avgRate),
    PeakRate: int64(f.peakRate),
    BytesRem: int64(f.bytesRem),
    Duration: int64(f.duration),
    Idle: int64(f.idle),
    TimeRem: int64(f.timeRem),
    Progress: f.progress,
    Active: f.active,
  };
}

const channelJson = (c: ChannelStatus) => ({
  ID: c.id,
  SendQueueCapacity: int64(c.sendQueueCapacity),
  SendQueueSize: int64(c.sendQueueSize),
  Priority: int64(c.priority),
  RecentlySent: int64(c.recentlySent),
});

export function nodeInfoResultOf(info: NodeInfo): NodeInfoResult {
  return {
    protocolVersion: info.protocolVersion,
    id: info.defaultNodeId,
    listenAddr: info.listenAddr,
    network: info.network,
    version: info.version,
    channels: info.channels,
    moniker: info.moniker,
    other: { txIndex: info.other.txIndex, rpcAddress: info.other.rpcAddress },
  };
}

export function netInfoFromPeers(peers: PeersView): NetInfoResult {
  const list = peers.peers();
  return {
    listening: peers.listening,
    listeners: [...peers.listeners],
    nPeers: list.length,
    peers: list.map((p) => ({
      nodeInfo: nodeInfoResultOf(p.nodeInfo),
      isOutbound: p.isOutbound,
      remoteIp: p.remoteIp,
      // an inbound socket's port is ephemeral: the seed form's url then uses the advertised port
      ...(p.isOutbound ? { remotePort: p.remotePort } : {}),
      connectionStatus: {
        Duration: int64(p.connectionStatus.duration),
        SendMonitor: flowJson(p.connectionStatus.sendMonitor),
        RecvMonitor: flowJson(p.connectionStatus.recvMonitor),
        Channels: p.connectionStatus.channels.map(channelJson),
      },
    })),
  };
}
