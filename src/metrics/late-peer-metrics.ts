// A PeerMetricsSink that can be handed to the peer layer before the metrics exist: the node
// starts its peers before its loops, and the metrics are built from the loops. Until `attach`
// it keeps what it hears, folded into totals (one entry per peer and channel, per message type,
// per peer), and replays those on attach, so the peers that connected first are not missing
// from the counters; after attach every call goes straight through.

import type { PeerMetricsSink } from "./p2p-metrics.js";

/** Entries kept before attach, per table; beyond it early traffic goes uncounted rather than unbounded. */
export const LATE_PEER_METRICS_MAX_ENTRIES = 4096;

export interface LatePeerMetrics {
  readonly sink: PeerMetricsSink;
  /** Replays what was heard so far into `target`; from then on forwards every call to it. */
  attach(target: PeerMetricsSink): void;
}

export function latePeerMetricsSink(): LatePeerMetrics {
  let target: PeerMetricsSink | undefined;
  let peers: number | undefined;
  let outbound: number | undefined;
  const received = new Map<string, { peerId: string; channel: number; bytes: number }>();
  const sent = new Map<string, { peerId: string; channel: number; bytes: number }>();
  const pending = new Map<string, number>();
  const txs = new Map<string, number>();
  const messagesIn = new Map<string, number>();
  const messagesOut = new Map<string, number>();
  const removed = new Set<string>();

  const add = <K>(table: Map<K, number>, key: K, n: number) => {
    const had = table.get(key);
    if (had !== undefined) table.set(key, had + n);
    else if (table.size < LATE_PEER_METRICS_MAX_ENTRIES) table.set(key, n);
  };
  const addBytes = (
    table: Map<string, { peerId: string; channel: number; bytes: number }>,
    peerId: string,
    channel: number,
    bytes: number,
  ) => {
    const key = `${peerId}/${channel}`;
    const had = table.get(key);
    if (had) had.bytes += bytes;
    else if (table.size < LATE_PEER_METRICS_MAX_ENTRIES) table.set(key, { peerId, channel, bytes });
  };

  const sink: PeerMetricsSink = {
    peersChanged: (count) => {
      if (target) target.peersChanged(count);
      else peers = count;
    },
    peerRemoved: (peerId) => {
      if (target) return target.peerRemoved(peerId);
      pending.delete(peerId);
      txs.delete(peerId);
      if (removed.size < LATE_PEER_METRICS_MAX_ENTRIES) removed.add(peerId);
    },
    bytesReceived: (peerId, channel, bytes) =>
      target ? target.bytesReceived(peerId, channel, bytes) : addBytes(received, peerId, channel, bytes),
    bytesSent: (peerId, channel, bytes) =>
      target ? target.bytesSent(peerId, channel, bytes) : addBytes(sent, peerId, channel, bytes),
    pendingSendBytes: (peerId, bytes) => {
      if (target) return target.pendingSendBytes(peerId, bytes);
      if (pending.has(peerId) || pending.size < LATE_PEER_METRICS_MAX_ENTRIES) pending.set(peerId, bytes);
    },
    txsReceived: (peerId, count) => (target ? target.txsReceived(peerId, count) : add(txs, peerId, count)),
    messageReceived: (type, bytes) =>
      target ? target.messageReceived(type, bytes) : add(messagesIn, type, bytes),
    messageSent: (type, bytes) => (target ? target.messageSent(type, bytes) : add(messagesOut, type, bytes)),
    mempoolOutboundConnections: (count) => {
      if (target) target.mempoolOutboundConnections(count);
      else outbound = count;
    },
  };

  return {
    sink,
    attach(next) {
      if (target !== undefined) throw new Error("late peer metrics: attach called twice");
      for (const e of received.values()) next.bytesReceived(e.peerId, e.channel, e.bytes);
      for (const e of sent.values()) next.bytesSent(e.peerId, e.channel, e.bytes);
      for (const [type, bytes] of messagesIn) next.messageReceived(type, bytes);
      for (const [type, bytes] of messagesOut) next.messageSent(type, bytes);
      for (const [peerId, count] of txs) next.txsReceived(peerId, count);
      for (const [peerId, bytes] of pending) next.pendingSendBytes(peerId, bytes);
      for (const peerId of removed) next.peerRemoved(peerId);
      if (peers !== undefined) next.peersChanged(peers);
      if (outbound !== undefined) next.mempoolOutboundConnections(outbound);
      received.clear();
      sent.clear();
      messagesIn.clear();
      messagesOut.clear();
      txs.clear();
      pending.clear();
      removed.clear();
      target = next;
    },
  };
}
