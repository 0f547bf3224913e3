// What the RPC reads and asks of the peer layer: net_info's peers (NodeInfo, direction, remote
// address, connection status) and the unsafe dial_seeds / dial_peers, which resolve the given
// addresses and hand them to PEX (the address book) and the switch (the dials).
import type { Logger } from "../src/logger/index.js";
import type { NetAddress } from "../src/p2p/net-address.js";
import type { PexInput } from "../src/p2p/pex/index.js";
import type { SwitchInput } from "../src/p2p/switch/index.js";
import type { ConnectionStatus, NodeInfo } from "../src/p2p/types.js";
import { unstamped } from "./effects/p2p-switch.js";
import { resolveForRoute } from "./p2p-addresses.js";
import type { PeerHub } from "./sources/peers.js";

export interface PeerView {
  nodeInfo: NodeInfo;
  isOutbound: boolean;
  remoteIp: string;
  remotePort: number;
  connectionStatus: ConnectionStatus;
}

/** What the RPC reads and asks of the peer layer. */
export interface PeersView {
  readonly listening: boolean;
  readonly listeners: readonly string[];
  peers(): PeerView[];
  dialSeeds(seeds: readonly string[]): Promise<void>;
  dialPeers(request: {
    peers: readonly string[];
    persistent: boolean;
    unconditional: boolean;
    private: boolean;
  }): Promise<void>;
}

export interface PeersViewDeps {
  hub: PeerHub;
  listenAddr: string;
  log: Logger;
  ourAddress: NetAddress | undefined;
  dispatchPex(input: PexInput): void;
  dispatchSwitch(input: SwitchInput): void;
}

export function createPeersView(deps: PeersViewDeps): PeersView {
  const { hub, listenAddr, log, ourAddress } = deps;
  return {
    listening: true,
    listeners: [`Listener(@${listenAddr.replace(/^tcp:\/\//, "")})`],
    peers: () =>
      hub.list().map((c) => ({
        nodeInfo: c.remoteNodeInfo,
        isOutbound: c.outbound,
        remoteIp: c.remoteAddress.host,
        remotePort: c.remoteAddress.port,
        connectionStatus: c.status(),
      })),
    dialSeeds: async (entries) => {
      const addresses = await resolveForRoute(entries, "dial_seeds", log);
      deps.dispatchPex({ type: "PexAddressesGiven", time: 0, seed: 0, addresses, ours: ourAddress });
      deps.dispatchSwitch(
        unstamped({
          type: "DialRequested",
          addresses,
          spread: true,
          persistent: false,
          unconditional: false,
        }),
      );
    },
    dialPeers: async (request) => {
      const addresses = await resolveForRoute(request.peers, "dial_peers", log);
      if (request.private)
        deps.dispatchPex({ type: "PexPrivateIdsAdded", time: 0, ids: addresses.map((a) => a.id) });
      deps.dispatchPex({ type: "PexAddressesGiven", time: 0, seed: 0, addresses, ours: ourAddress });
      deps.dispatchSwitch(
        unstamped({
          type: "DialRequested",
          addresses,
          spread: true,
          persistent: request.persistent,
          unconditional: request.unconditional,
        }),
      );
    },
  };
}
