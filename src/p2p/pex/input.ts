import type { NetAddress } from "../net-address.js";
import type { WireAddress } from "./messages.js";
import type { PexPeer } from "./state.js";

export type PexInput =
  | { type: "PexPeerAdded"; time: number; seed: number; peer: PexPeer }
  | { type: "PexPeerRemoved"; time: number; id: string }
  | { type: "PexRequestReceived"; time: number; seed: number; from: string }
  | { type: "PexAddrsReceived"; time: number; seed: number; from: string; addrs: readonly WireAddress[] }
  | { type: "PexMessageInvalid"; time: number; from: string; reason: string }
  /** every ensurePeersPeriod; `outbound`/`inbound`/`dialing` are the switch's counts */
  | {
      type: "PexEnsurePeersTicked";
      time: number;
      seed: number;
      outbound: number;
      inbound: number;
      dialing: number;
      connectedIds: readonly string[];
    }
  /** a dial PEX asked for failed (connection refused, handshake failed...) */
  | { type: "PexDialFailed"; time: number; address: NetAddress }
  | { type: "PexDialSucceeded"; time: number; address: NetAddress }
  /** addresses an operator gave (persistent_peers at start, dial_peers, dial_seeds): stored with us as the source */
  | {
      type: "PexAddressesGiven";
      time: number;
      seed: number;
      addresses: readonly NetAddress[];
      ours: NetAddress | undefined;
    }
  /** a reactor found the peer useful (v0.34: every 10,000 votes or block parts) */
  | { type: "PexPeerMarkedGood"; time: number; id: string }
  | { type: "PexSaveTicked"; time: number }
  /** dial_peers with private = true: these ids are never stored or gossiped from now on */
  | { type: "PexPrivateIdsAdded"; time: number; ids: readonly string[] };
