// Shared types of the peer layer: the contract between the transport (secret connection,
// MConnection, NodeInfo handshake) and the switch that admits, dials and drops peers.
// Field names follow CometBFT v0.34's DefaultNodeInfo in camelCase so /status and net_info can
// print them one to one.

import type { Socket } from "node:net";

/** 40 lowercase hex chars: hex(sha256(ed25519 pubkey)[0:20]). */
export type NodeId = string;

/** DefaultNodeInfo (v0.34 field names in camelCase). */
export interface NodeInfo {
  protocolVersion: { p2p: bigint; block: bigint; app: bigint };
  defaultNodeId: NodeId;
  /** "tcp://127.0.0.1:26656" or "127.0.0.1:26656", as v0.34 writes it. */
  listenAddr: string;
  /** The chain id. */
  network: string;
  version: string;
  /** Channel ids this node speaks, in the order it advertises them. */
  channels: Uint8Array;
  moniker: string;
  other: { txIndex: string; rpcAddress: string };
}

export interface ChannelDescriptor {
  id: number;
  /** Relative share of the send bandwidth (v0.34 picks the lowest recentlySent / priority). */
  priority: number;
  /** Messages queued per channel before send() returns false. */
  sendQueueCapacity: number;
  /** Initial receive-buffer size hint only; not a limit (as in v0.34). */
  recvBufferCapacity: number;
  /** Largest reassembled message accepted on this channel; a larger one closes the connection. */
  recvMessageCapacity: number;
  /**
   * Flush at the end of the event-loop turn that queued a packet of this channel instead of
   * waiting out flush_throttle_timeout (beyond v0.34: consensus messages are latency-critical, and
   * each hop of a height waiting up to 100 ms for the throttle added ~300 ms to every block).
   */
  flushPromptly?: boolean;
}

/** From the [p2p] config, already parsed to numbers and milliseconds. */
export interface MConnectionConfig {
  /** bytes/s */
  sendRate: number;
  /** bytes/s */
  recvRate: number;
  maxPacketMsgPayloadSize: number;
  flushThrottleMs: number;
  pingIntervalMs: number;
  pongTimeoutMs: number;
}

export interface ChannelStatus {
  id: number;
  sendQueueCapacity: number;
  sendQueueSize: number;
  priority: number;
  recentlySent: number;
}

/** The flowrate.Status v0.34 prints in net_info (durations in nanoseconds, as Go prints them). */
export interface FlowStatus {
  /** RFC 3339 time the monitor started. */
  start: string;
  bytes: number;
  samples: number;
  instRate: number;
  curRate: number;
  avgRate: number;
  peakRate: number;
  bytesRem: number;
  duration: number;
  idle: number;
  timeRem: number;
  progress: number;
  active: boolean;
}

export interface ConnectionStatus {
  /** Nanoseconds since the connection started. */
  duration: number;
  sendMonitor: FlowStatus;
  recvMonitor: FlowStatus;
  channels: ChannelStatus[];
}

/** Why a connection ended. code like P2P_BAD_MAC, P2P_PONG_TIMEOUT, P2P_CLOSED_BY_US. */
export interface PeerCloseReason {
  code: string;
  message: string;
}

/** A running multiplexed connection to one authenticated peer. */
export interface PeerConnection {
  readonly remoteNodeInfo: NodeInfo;
  readonly remoteId: NodeId;
  /** The socket's remote address. */
  readonly remoteAddress: { host: string; port: number };
  readonly outbound: boolean;
  /** Queues a message; false when the channel's send queue is full or the connection is closed. */
  send(channelId: number, message: Uint8Array): boolean;
  /** Queues several messages in order, all or none: false as send's. */
  sendAll(channelId: number, messages: readonly Uint8Array[]): boolean;
  /** Whole reassembled messages, per channel. */
  onMessage(listener: (channelId: number, message: Uint8Array) => void): void;
  /** Called once when the connection ends, with why (peer error, our close, ping timeout...). */
  onClose(listener: (reason: PeerCloseReason) => void): void;
  status(): ConnectionStatus;
  close(reason: string): void;
}

/** Options of upgradeConnection: steps 3..6 of the connection lifecycle on an open socket. */
export interface UpgradeOptions {
  /** 64-byte Go-form ed25519 key (seed ‖ pub) from node_key.json. */
  nodePrivateKey: Uint8Array;
  ourNodeInfo: NodeInfo;
  /** Outbound: the id in the dialled address; the authenticated id must equal it. */
  dialledId?: NodeId;
  /** [p2p] handshake_timeout; each of the two handshake phases gets min(this, 3 s) as v0.34 does. */
  handshakeTimeoutMs: number;
  channels: readonly ChannelDescriptor[];
  mconnection: MConnectionConfig;
  outbound: boolean;
}

/** Signature of upgradeConnection (src/p2p/upgrade.ts). */
export type UpgradeConnection = (socket: Socket, options: UpgradeOptions) => Promise<PeerConnection>;
