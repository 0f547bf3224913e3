// What the switch asks the socket adapters (streams/effects/p2p-*.ts) to do, and what it reports.
import type { NetAddress } from "../net-address.js";
import type { ConnId, NodeId, Peer } from "./state.js";

export type SwitchEffect =
  /** Open a TCP connection (dial timeout) and upgrade it (handshake timeout), checking the id. */
  | {
      type: "Dial";
      connId: ConnId;
      address: NetAddress;
      dialTimeoutMs: number;
      handshakeTimeoutMs: number;
      persistent: boolean;
    }
  /** Upgrade an accepted socket. */
  | { type: "UpgradeInbound"; connId: ConnId; handshakeTimeoutMs: number }
  /** Close a connection that is not (or not yet) a peer. */
  | { type: "CloseConnection"; connId: ConnId; reason: string }
  /** The connection becomes a peer: start routing its channels, tell the reactors. */
  | { type: "AdmitPeer"; peer: Peer }
  /** Disconnect a peer; `error` = its fault (a persistent peer is then redialled, as in v0.34). */
  | { type: "DisconnectPeer"; id: NodeId; connId: ConnId; reason: string; error: boolean }
  /** A persistent peer's dial failed or its connection was lost: when it is tried next. */
  | { type: "RedialScheduled"; address: NetAddress; failures: number; delayMs: number }
  /** A persistent peer's schedule ran out (v0.34 gives up after 30 failed dials). */
  | { type: "RedialAbandoned"; address: NetAddress; failures: number };
