// CometBFT v0.34's p2p metrics (subsystem "p2p"), and the small typed interface the peer layer
// calls to keep them: the peer layer reports facts (a peer came, bytes moved on a channel, a
// message of a type went through), never touches prom-client itself.
import { Counter, Gauge, type Registry } from "prom-client";

export interface P2pMetrics {
  peers: Gauge;
  peerReceiveBytesTotal: Counter<"peer_id" | "chID">;
  peerSendBytesTotal: Counter<"peer_id" | "chID">;
  peerPendingSendBytes: Gauge<"peer_id">;
  numTxs: Gauge<"peer_id">;
  messageReceiveBytesTotal: Counter<"message_type">;
  messageSendBytesTotal: Counter<"message_type">;
  /**
   * Run before the byte counters are read at a scrape: the sink keeps per-message counts in plain
   * numbers (a prom-client inc hashes its labels, ~10x the rest of a message's trip through the
   * hub) and folds them into the counters here.
   */
  readonly beforeCollect: (() => void)[];
}

export function createP2pMetrics(registry: Registry, namespace: string): P2pMetrics {
  const name = (n: string) => `${namespace}_p2p_${n}`;
  const registers = [registry];
  const beforeCollect: (() => void)[] = [];
  const collect = () => {
    for (const fold of beforeCollect) fold();
  };
  return {
    beforeCollect,
    peers: new Gauge({ name: name("peers"), help: "Number of peers.", registers }),
    peerReceiveBytesTotal: new Counter({
      name: name("peer_receive_bytes_total"),
      collect,
      help: "Number of bytes received from a given peer.",
      labelNames: ["peer_id", "chID"],
      registers,
    }),
    peerSendBytesTotal: new Counter({
      name: name("peer_send_bytes_total"),
      collect,
      help: "Number of bytes sent to a given peer.",
      labelNames: ["peer_id", "chID"],
      registers,
    }),
    peerPendingSendBytes: new Gauge({
      name: name("peer_pending_send_bytes"),
      help: "Pending bytes to be sent to a given peer.",
      labelNames: ["peer_id"],
      registers,
    }),
    numTxs: new Gauge({
      name: name("num_txs"),
      help: "Number of transactions submitted by each peer.",
      labelNames: ["peer_id"],
      registers,
    }),
    messageReceiveBytesTotal: new Counter({
      name: name("message_receive_bytes_total"),
      collect,
      help: "Number of bytes of each message type received.",
      labelNames: ["message_type"],
      registers,
    }),
    messageSendBytesTotal: new Counter({
      name: name("message_send_bytes_total"),
      collect,
      help: "Number of bytes of each message type sent.",
      labelNames: ["message_type"],
      registers,
    }),
  };
}

/**
 * What the peer layer tells the metrics. `peerId` is the node id (hex), `channel` the channel byte
 * (0x20 consensus state, 0x30 mempool, …), `messageType` the reactor message's proto name as v0.34
 * labels it (e.g. "consensus_Vote", "mempool_Txs").
 */
export interface PeerMetricsSink {
  /** The number of connected peers changed. */
  peersChanged(count: number): void;
  /** A peer left: its labelled series are dropped, as v0.34 keeps them only for live peers' sake. */
  peerRemoved(peerId: string): void;
  bytesReceived(peerId: string, channel: number, bytes: number): void;
  bytesSent(peerId: string, channel: number, bytes: number): void;
  /** Bytes queued for a peer and not yet written to its connection. */
  pendingSendBytes(peerId: string, bytes: number): void;
  /** A peer gave us `count` more transactions. */
  txsReceived(peerId: string, count: number): void;
  messageReceived(messageType: string, bytes: number): void;
  messageSent(messageType: string, bytes: number): void;
  /** Peers a tx is being gossiped to right now (mempool_active_outbound_connections). */
  mempoolOutboundConnections(count: number): void;
}
// consensus_block_parts{peer_id} is not here: it is counted from the log's BlockPartReceived
// inputs (their `from`), by the consensus projection.

/** Channel ids are labelled as v0.34 prints them: `fmt.Sprintf("%#x", chID)`. */
const channelLabel = (channel: number) => `0x${channel.toString(16)}`;

/** Bytes not yet in a prom-client counter, for one label set. */
interface Tally {
  inc(bytes: number): void;
  bytes: number;
}

const tally = (inc: (bytes: number) => void): Tally => ({ inc, bytes: 0 });

export function peerMetricsSink(
  p2p: P2pMetrics,
  more: { activeOutboundConnections: Gauge },
): PeerMetricsSink {
  // Per message: a map lookup by the hub's own peer id string (its hash is cached) and an add;
  // the labelled inc happens once per label set at the next scrape.
  const byPeer = new Map<string, { received: Tally[]; sent: Tally[] }>();
  const byType = { received: new Map<string, Tally>(), sent: new Map<string, Tally>() };
  const fold = (t: Tally) => {
    if (t.bytes === 0) return;
    t.inc(t.bytes);
    t.bytes = 0;
  };
  const foldAll = () => {
    for (const peer of byPeer.values()) {
      for (const t of peer.received) if (t) fold(t);
      for (const t of peer.sent) if (t) fold(t);
    }
    for (const t of byType.received.values()) fold(t);
    for (const t of byType.sent.values()) fold(t);
  };
  p2p.beforeCollect.push(foldAll);

  const perPeer = (direction: "received" | "sent", peerId: string, channel: number, bytes: number) => {
    let peer = byPeer.get(peerId);
    if (peer === undefined) {
      peer = { received: [], sent: [] };
      byPeer.set(peerId, peer);
    }
    const slots = peer[direction];
    let t = slots[channel];
    if (t === undefined) {
      const counter = direction === "received" ? p2p.peerReceiveBytesTotal : p2p.peerSendBytesTotal;
      const labels = { peer_id: peerId, chID: channelLabel(channel) };
      t = tally((n) => counter.inc(labels, n));
      slots[channel] = t;
    }
    t.bytes += bytes;
  };
  const perType = (direction: "received" | "sent", messageType: string, bytes: number) => {
    const types = byType[direction];
    let t = types.get(messageType);
    if (t === undefined) {
      const counter = direction === "received" ? p2p.messageReceiveBytesTotal : p2p.messageSendBytesTotal;
      const labels = { message_type: messageType };
      t = tally((n) => counter.inc(labels, n));
      types.set(messageType, t);
    }
    t.bytes += bytes;
  };

  return {
    peersChanged: (count) => p2p.peers.set(count),
    peerRemoved: (peerId) => {
      // its last bytes are folded in now, then its tallies go (their series stay, as counters do)
      const peer = byPeer.get(peerId);
      if (peer) {
        for (const t of peer.received) if (t) fold(t);
        for (const t of peer.sent) if (t) fold(t);
        byPeer.delete(peerId);
      }
      p2p.peerPendingSendBytes.remove({ peer_id: peerId });
      p2p.numTxs.remove({ peer_id: peerId });
    },
    bytesReceived: (peerId, channel, bytes) => perPeer("received", peerId, channel, bytes),
    bytesSent: (peerId, channel, bytes) => perPeer("sent", peerId, channel, bytes),
    pendingSendBytes: (peerId, bytes) => p2p.peerPendingSendBytes.set({ peer_id: peerId }, bytes),
    txsReceived: (peerId, count) => p2p.numTxs.inc({ peer_id: peerId }, count),
    messageReceived: (messageType, bytes) => perType("received", messageType, bytes),
    messageSent: (messageType, bytes) => perType("sent", messageType, bytes),
    mempoolOutboundConnections: (count) => more.activeOutboundConnections.set(count),
  };
}

/** For a node without metrics (prometheus = false): the peer layer calls the same interface. */
export const NO_PEER_METRICS: PeerMetricsSink = {
  peersChanged: () => {},
  peerRemoved: () => {},
  bytesReceived: () => {},
  bytesSent: () => {},
  pendingSendBytes: () => {},
  txsReceived: () => {},
  messageReceived: () => {},
  messageSent: () => {},
  mempoolOutboundConnections: () => {},
};
