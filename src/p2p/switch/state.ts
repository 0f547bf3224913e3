// The switch's state: who is connected, which connections are still being dialled or
// handshaken (with their deadlines), and the redial schedule of persistent peers.
import type { NetAddress } from "../net-address.js";

export type NodeId = string;
export type ConnId = string;

export interface SwitchConfig {
  ourId: NodeId;
  maxInbound: number;
  maxOutbound: number;
  unconditionalIds: ReadonlySet<NodeId>;
  allowDuplicateIp: boolean;
  /** [p2p] handshake_timeout: secret connection plus NodeInfo exchange */
  handshakeTimeoutMs: number;
  /** [p2p] dial_timeout: the TCP connect */
  dialTimeoutMs: number;
  /** [p2p] persistent_peers_max_dial_period; 0 = v0.34's schedule unchanged */
  persistentMaxDialPeriodMs: number;
}

export interface Peer {
  id: NodeId;
  connId: ConnId;
  outbound: boolean;
  /** the socket's remote address */
  ip: string;
  port: number;
  /** outbound: the address we dialled; inbound: the peer's self-reported listen address, when valid */
  address: NetAddress | undefined;
  persistent: boolean;
  unconditional: boolean;
  addedAt: number;
}

/** A connection that is not a peer yet: dialling (outbound) or handshaking (both). */
export interface PendingConnection {
  connId: ConnId;
  outbound: boolean;
  ip: string;
  /** outbound: what we dialled */
  address: NetAddress | undefined;
  /** when it is cut if it has not become a peer */
  deadline: number;
}

export interface PersistentPeer {
  address: NetAddress;
  /** dials failed in a row since the last success */
  failures: number;
  /** the time of the next scheduled dial; undefined while connected, dialling or given up */
  nextDialAt: number | undefined;
  gaveUp: boolean;
}

/** A one-off dial waiting for its time (dial_peers / dial_seeds spread dials over 0–3 s). */
export interface ScheduledDial {
  address: NetAddress;
  at: number;
}

export interface SwitchState {
  config: SwitchConfig;
  /** latest input time seen */
  time: number;
  nextConnSeq: number;
  peers: ReadonlyMap<NodeId, Peer>;
  pending: ReadonlyMap<ConnId, PendingConnection>;
  persistent: ReadonlyMap<NodeId, PersistentPeer>;
  scheduled: readonly ScheduledDial[];
  /** addresses that turned out to be ourselves: never dialled again */
  ourAddresses: ReadonlySet<string>;
}

export function initialSwitchState(config: SwitchConfig): SwitchState {
  return {
    config,
    time: 0,
    nextConnSeq: 1,
    peers: new Map(),
    pending: new Map(),
    persistent: new Map(),
    scheduled: [],
    ourAddresses: new Set(),
  };
}

/** Peer counts as v0.34 counts them: unconditional peers are in neither total. */
export function peerCounts(state: SwitchState): { inbound: number; outbound: number; dialing: number } {
  let inbound = 0;
  let outbound = 0;
  for (const p of state.peers.values()) {
    if (p.unconditional) continue;
    if (p.outbound) outbound++;
    else inbound++;
  }
  let dialing = 0;
  for (const c of state.pending.values()) if (c.outbound) dialing++;
  return { inbound, outbound, dialing };
}

/** Already connected to this id, or dialling it. */
export function isDialingOrConnected(state: SwitchState, id: NodeId): boolean {
  if (state.peers.has(id)) return true;
  for (const c of state.pending.values()) if (c.address?.id === id) return true;
  return false;
}
