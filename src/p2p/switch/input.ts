// What the switch learns. `time` (ms) is stamped where an input enters; `seed` carries the
// randomness the decision needs (random.ts), so the reducer itself stays pure.
import type { NetAddress } from "../net-address.js";
import type { ConnId, NodeId } from "./state.js";

export type SwitchInput =
  /** The node started: dial persistent peers, each after 0–3 s. */
  | { type: "SwitchStarted"; time: number; seed: number; persistentPeers: readonly NetAddress[] }
  /** Time passed: due dials go out, stalled connections are cut. */
  | { type: "SwitchTicked"; time: number; seed: number }
  /**
   * Dial these (dial_peers, dial_seeds, PEX, seeds). `spread` waits 0–3 s per address as v0.34's
   * DialPeersAsync does; `persistent` replaces the persistent list with these (dial_peers).
   */
  | {
      type: "DialRequested";
      time: number;
      seed: number;
      addresses: readonly NetAddress[];
      spread: boolean;
      persistent: boolean;
      unconditional: boolean;
    }
  /** A socket was accepted on the listener. */
  | { type: "InboundConnected"; time: number; connId: ConnId; ip: string; port: number }
  /** A dial failed, or a handshake failed (either direction), before it became a peer. */
  | { type: "ConnectionFailed"; time: number; seed: number; connId: ConnId; reason: string; self?: boolean }
  /** The handshake finished: the remote is authenticated and compatible; admission is ours. */
  | {
      type: "ConnectionUpgraded";
      time: number;
      connId: ConnId;
      id: NodeId;
      ip: string;
      port: number;
      /** the peer's self-reported listen address, parsed (undefined when unusable) */
      listenAddress: NetAddress | undefined;
    }
  /** A peer's connection ended. `error` = not a stop we chose (v0.34 redials persistent peers then). */
  | {
      type: "PeerDisconnected";
      time: number;
      seed: number;
      id: NodeId;
      connId: ConnId;
      reason: string;
      error: boolean;
    }
  /** Someone (PEX, a reactor, a seed hanging up) wants a peer gone. */
  | { type: "StopPeerRequested"; time: number; id: NodeId; reason: string; error: boolean };
