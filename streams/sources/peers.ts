// The peers' side of the node: the table of live peer connections (filled by the switch's
// AdmitPeer effect), every message they send as a typed stream per channel, the consensus
// channels decoded and passed through the verification step (peer-consensus.ts) before the
// consensus log, and the listener that turns accepted sockets into switch inputs.
// Sending is here too: only on a channel the peer advertised (v0.34 drops the rest, and a Go
// node closes the connection on an unknown channel).
import { createServer, type Server, type Socket } from "node:net";
import { EMPTY, filter, map, merge, mergeMap, Observable, of, Subject } from "rxjs";
import type { ConsensusRules } from "../../src/consensus/rules.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import type { BatchVerifier } from "../../src/crypto/verify-item.js";
import type { Logger } from "../../src/logger/index.js";
import { NO_PEER_METRICS, type PeerMetricsSink } from "../../src/metrics/index.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { CHANNEL_DATA, CHANNEL_VOTE, decodeConsensusMessage } from "../../src/p2p/consensus-wire.js";
import { mempoolTxCount, messageTypeLabel } from "../../src/p2p/message-type.js";
import type { NodeInfo, PeerConnection } from "../../src/p2p/types.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import { Multicast } from "../multicast.js";
import { type PeerConsensusInput, peerConsensusSource } from "./peer-consensus.js";

/**
 * A peer joined or left the hub: what every reactor (consensus gossip, mempool, evidence, block
 * sync) keys its per-peer state on. `added` comes before that peer's first message; `removed`
 * after its last.
 */
export type PeerLifecycleEvent =
  | { type: "added"; peerId: string; nodeInfo: NodeInfo; outbound: boolean }
  | { type: "removed"; peerId: string };

/** One whole message from a peer on one channel. */
export interface PeerMessage {
  peerId: string;
  channelId: number;
  bytes: Uint8Array;
}

/**
 * What a held hub keeps for its reactors before they subscribe (peer joins, leaves and
 * messages): start-up takes about a second, so this bounds a burst, not a steady flow.
 */
export const MAX_HELD_DELIVERIES = 50_000;

export class PeerHub {
  private readonly connections = new Map<string, PeerConnection>();
  /**
   * Peers whose "added" went out: what ids() reports, so a reactor that reads ids() and then
   * follows peers$ sees each peer once.
   */
  private readonly announced = new Set<string>();
  /** Deliveries waiting for startDelivery() (undefined once delivering). */
  private held: (() => void)[] | undefined;
  /**
   * One stream per channel: a message goes only to its channel's subscribers, not through a
   * filter of every reactor's channel (nine of them on a validator, per message per peer). A
   * Multicast, not an rxjs Subject: a Subject's next made an iterator, closures and a result object
   * per message and subscriber (streams/multicast.ts), and every tx a peer sends is a message.
   */
  private readonly byChannel = new Map<number, Multicast<PeerMessage>>();
  private completed = false;
  private readonly lifecycle = new Subject<PeerLifecycleEvent>();
  /** peers added and removed, in order (a reactor that starts late reads ids() first) */
  readonly peers$: Observable<PeerLifecycleEvent> = this.lifecycle.asObservable();

  /** `metrics` hears of every peer added or removed and every whole message in or out. */
  /**
   * `holdUntilStarted`: peers may connect while the node is still assembling its reactors (the
   * listener and the dials start first); their joins and messages are kept, in order, until
   * startDelivery(), so no reactor misses a peer's first NewRoundStep or status (v0.34 registers
   * its reactors before the switch starts). Default: delivered at once.
   */
  constructor(
    private readonly log: Logger,
    private readonly metrics: PeerMetricsSink = NO_PEER_METRICS,
    holdUntilStarted = false,
  ) {
    if (holdUntilStarted) this.held = [];
  }

  /** Delivers what was held, in order, then everything at once from now on. */
  startDelivery(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    for (const deliver of held) deliver();
  }

  private deliver(event: () => void): void {
    if (this.held === undefined) event();
    else if (this.held.length < MAX_HELD_DELIVERIES) this.held.push(event);
    else this.log.error("peer deliveries held past the bound, dropped", { bound: MAX_HELD_DELIVERIES });
  }

  /** The messages of one channel. */
  channel$(channelId: number): Observable<PeerMessage> {
    let subject = this.byChannel.get(channelId);
    if (subject === undefined) {
      subject = new Multicast<PeerMessage>();
      this.byChannel.set(channelId, subject);
      if (this.completed) subject.complete();
    }
    return subject.asObservable();
  }

  private publish(message: PeerMessage): void {
    this.byChannel.get(message.channelId)?.next(message);
  }

  add(peerId: string, connection: PeerConnection): void {
    this.connections.set(peerId, connection);
    this.metrics.peersChanged(this.connections.size);
    this.deliver(() => {
      this.announced.add(peerId);
      this.lifecycle.next({
        type: "added",
        peerId,
        nodeInfo: connection.remoteNodeInfo,
        outbound: connection.outbound,
      });
    });
    connection.onMessage((channelId, bytes) => {
      if (this.connections.get(peerId) !== connection) return;
      this.countReceived(peerId, channelId, bytes);
      if (this.log.isEnabled("debug"))
        this.log.debug("received", { peer: peerId, channel: hexChannel(channelId), bytes: bytes.length });
      // Once delivering, at once: no closure per message for a queue that is no longer used.
      if (this.held === undefined) this.publish({ peerId, channelId, bytes });
      else this.deliver(() => this.publish({ peerId, channelId, bytes }));
    });
  }

  /** Forgets a peer's connection (only that one: a replacement may already be registered). */
  remove(peerId: string, connection: PeerConnection): void {
    if (this.connections.get(peerId) !== connection) return;
    this.connections.delete(peerId);
    this.metrics.peerRemoved(peerId);
    this.metrics.peersChanged(this.connections.size);
    this.deliver(() => {
      this.announced.delete(peerId);
      this.lifecycle.next({ type: "removed", peerId });
    });
  }

  /**
   * Reports each peer's queued, not yet written messages (v0.34's peer_pending_send_bytes sums
   * its channels' send queue sizes, i.e. messages, every 10 s): called on a timer, never per send.
   */
  samplePendingSends(): void {
    for (const [peerId, connection] of this.connections) {
      let queued = 0;
      for (const channel of connection.status().channels) queued += channel.sendQueueSize;
      this.metrics.pendingSendBytes(peerId, queued);
    }
  }

  get(peerId: string): PeerConnection | undefined {
    return this.connections.get(peerId);
  }

  /** The peers the reactors have been told of (all of them once delivering). */
  ids(): string[] {
    return [...this.announced];
  }

  list(): PeerConnection[] {
    return [...this.connections.values()];
  }

  /** Queues a message to one peer; false when it does not speak the channel or its queue is full. */
  send(peerId: string, channelId: number, bytes: Uint8Array): boolean {
    return this.sendTyped(peerId, channelId, bytes, undefined);
  }

  /** Queues several messages to one peer in order, all or none; false as send's. */
  sendAll(peerId: string, channelId: number, messages: readonly Uint8Array[]): boolean {
    const connection = this.connections.get(peerId);
    if (connection?.remoteNodeInfo.channels.includes(channelId) !== true) return false;
    const queued = connection!.sendAll(channelId, messages);
    if (queued) for (const bytes of messages) this.countSent(peerId, channelId, bytes, undefined);
    this.logSend(queued, peerId, channelId, { messages: messages.length });
    return queued;
  }

  /** Sends to every peer that speaks the channel; returns how many took it. */
  broadcast(channelId: number, bytes: Uint8Array): number {
    // One message, one type: read it once, not once per peer.
    const messageType = messageTypeLabel(channelId, bytes);
    let n = 0;
    for (const id of this.connections.keys()) if (this.sendTyped(id, channelId, bytes, messageType)) n++;
    return n;
  }

  private sendTyped(
    peerId: string,
    channelId: number,
    bytes: Uint8Array,
    messageType: string | undefined,
  ): boolean {
    const connection = this.connections.get(peerId);
    if (connection?.remoteNodeInfo.channels.includes(channelId) !== true) return false;
    const queued = connection!.send(channelId, bytes);
    if (queued) this.countSent(peerId, channelId, bytes, messageType);
    this.logSend(queued, peerId, channelId, { bytes: bytes.length });
    return queued;
  }

  /** v0.34 counts a message sent once the connection has queued it. */
  private countSent(
    peerId: string,
    channelId: number,
    bytes: Uint8Array,
    messageType: string | undefined,
  ): void {
    this.metrics.bytesSent(peerId, channelId, bytes.length);
    this.metrics.messageSent(messageType ?? messageTypeLabel(channelId, bytes), bytes.length);
  }

  private logSend(queued: boolean, peerId: string, channelId: number, size: Record<string, number>): void {
    if (this.log.isEnabled("debug"))
      this.log.debug(queued ? "sent" : "send queue full, dropped", {
        peer: peerId,
        channel: hexChannel(channelId),
        ...size,
      });
  }

  private countReceived(peerId: string, channelId: number, bytes: Uint8Array): void {
    this.metrics.bytesReceived(peerId, channelId, bytes.length);
    this.metrics.messageReceived(messageTypeLabel(channelId, bytes), bytes.length);
    if (channelId === CHANNEL_MEMPOOL) {
      const txs = mempoolTxCount(bytes);
      if (txs > 0) this.metrics.txsReceived(peerId, txs);
    }
  }

  complete(): void {
    this.completed = true;
    for (const subject of this.byChannel.values()) subject.complete();
    this.lifecycle.complete();
  }
}

/** A peer that speaks some channel joined or left (channelPeers$). */
export interface ChannelPeerEvent {
  type: "added" | "removed";
  peerId: string;
}

/**
 * The peers that speak `channelId`, for a reactor that starts after some have joined: those the
 * hub has announced, then each join of a peer speaking it and each leave.
 */
export function channelPeers$(
  hub: Pick<PeerHub, "ids" | "get" | "peers$">,
  channelId: number,
): Observable<ChannelPeerEvent> {
  return new Observable<ChannelPeerEvent>((subscriber) => {
    for (const peerId of hub.ids()) {
      if (hub.get(peerId)?.remoteNodeInfo.channels.includes(channelId) === true)
        subscriber.next({ type: "added", peerId });
    }
    return hub.peers$
      .pipe(
        filter((e) => e.type === "removed" || e.nodeInfo.channels.includes(channelId)),
        map((e): ChannelPeerEvent => ({ type: e.type, peerId: e.peerId })),
      )
      .subscribe(subscriber);
  });
}

const hexChannel = (id: number) => `0x${id.toString(16).padStart(2, "0")}`;

export interface PeerConsensusHandOff {
  state(): ConsensusState;
  rules: ConsensusRules;
  verifier: BatchVerifier;
  clock(): Timestamp;
  /** a peer sent something bad: the switch disconnects it */
  reject(peerId: string, reason: string): void;
}

/**
 * Proposals, block parts and votes from peers, decoded and verified, ready for the consensus
 * loop. Garbage disconnects its sender; other consensus variants wait for the consensus reactor.
 */
export function peerConsensusInputs(hub: PeerHub, deps: PeerConsensusHandOff, log: Logger) {
  // merge of two hot streams forwards each message as it comes: arrival order is kept.
  const decoded$ = merge(hub.channel$(CHANNEL_DATA), hub.channel$(CHANNEL_VOTE)).pipe(
    mergeMap((m): Observable<PeerConsensusInput> => {
      const d = decodeConsensusMessage(m.bytes, m.peerId, deps.clock());
      if (d.kind === "invalid") {
        deps.reject(m.peerId, d.reason);
        return EMPTY;
      }
      if (d.kind === "other") return EMPTY;
      return of(d.input as PeerConsensusInput);
    }),
  );
  return peerConsensusSource(decoded$, {
    state: deps.state,
    rules: deps.rules,
    verifier: deps.verifier,
    rejected: (from, input, reason) => deps.reject(from, `bad ${input.type}: ${reason}`),
    ignored: (from, input, reason) =>
      log.debug("ignored a consensus message", { peer: from, type: input.type, reason }),
  });
}

/** The listening socket on p2p.laddr; every accepted socket is handed to `onSocket`. */
export async function listenForPeers(
  host: string,
  port: number,
  onSocket: (socket: Socket) => void,
): Promise<{ server: Server; host: string; port: number }> {
  const server = createServer({ noDelay: true }, onSocket);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("p2p listener has no TCP address");
  return { server, host: address.address, port: address.port };
}
