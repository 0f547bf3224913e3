// The whole per-socket handshake: secret connection, dialled-ID check, NodeInfo exchange and
// checks, then a running MConnection. The switch decides admission after this resolves.

import type { Socket } from "node:net";
import { P2pError } from "./errors.js";
import type { PeerConnection, UpgradeOptions } from "./types.js";

/**
 * Runs steps 3..6 of the v0.34 connection lifecycle on an already-open socket. Rejects with a
 * P2pError whose code names the failed step (P2P_HANDSHAKE_TIMEOUT, P2P_BAD_AUTH_SIG,
 * P2P_LOW_ORDER_KEY, P2P_DIALLED_ID_MISMATCH, P2P_INCOMPATIBLE, P2P_SELF, P2P_BAD_NODE_INFO, ...);
 * the socket is destroyed on rejection.
 */
export async function upgradeConnection(socket: Socket, options: UpgradeOptions): Promise<PeerConnection> {
  void options;
  socket.destroy();
  // Replaced by the real handshake in the next commits of branch p2p-conn.
  throw new P2pError("P2P_HANDSHAKE_EOF", "upgradeConnection: transport not built yet");
}
