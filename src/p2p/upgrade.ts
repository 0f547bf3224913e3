// The whole per-socket handshake (steps 3..6 of v0.34's connection lifecycle): secret
// connection, dialled-ID check, NodeInfo exchange and checks, then a running MConnection.
// The switch decides admission (limits, duplicates, filters) after this resolves.

import type { Socket } from "node:net";
import { channelMessageProblem } from "./channel-message-check.js";
import { P2pError } from "./errors.js";
import { MConnection } from "./mconnection/mconnection.js";
import {
  decodeNodeInfo,
  encodeNodeInfo,
  incompatibility,
  MAX_NODE_INFO_SIZE,
  nodeInfoProblem,
} from "./node-info.js";
import { makeSecretConnection, type SecretConnection } from "./secret-connection/secret-connection.js";
import type {
  ConnectionStatus,
  NodeId,
  NodeInfo,
  PeerCloseReason,
  PeerConnection,
  UpgradeOptions,
} from "./types.js";

/** v0.34 gives the secret handshake and the NodeInfo exchange 3 s each, whatever the config says. */
export const V034_HANDSHAKE_PHASE_MS = 3000;

/**
 * Runs the handshake on an open socket and resolves with a running connection. Rejects with a
 * P2pError naming the failed step (P2P_HANDSHAKE_TIMEOUT, P2P_LOW_ORDER_KEY, P2P_BAD_AUTH_SIG,
 * P2P_BAD_MAC, P2P_DIALLED_ID_MISMATCH, P2P_BAD_NODE_INFO, P2P_ID_MISMATCH, P2P_SELF,
 * P2P_INCOMPATIBLE, ...); the socket is destroyed then.
 * Each of the two phases gets min(handshakeTimeoutMs, 3 s), as a Go peer gives us no longer.
 */
export async function upgradeConnection(socket: Socket, options: UpgradeOptions): Promise<PeerConnection> {
  const phaseMs = Math.min(options.handshakeTimeoutMs, V034_HANDSHAKE_PHASE_MS);
  const remoteAddress = { host: socket.remoteAddress ?? "", port: socket.remotePort ?? 0 };
  const secret = await makeSecretConnection(socket, options.nodePrivateKey, phaseMs);
  try {
    const remoteId = secret.remoteId;
    if (options.outbound && options.dialledId !== undefined && options.dialledId !== remoteId) {
      throw new P2pError(
        "P2P_DIALLED_ID_MISMATCH",
        `dialled ${options.dialledId} but the peer authenticated as ${remoteId}`,
      );
    }
    const remoteNodeInfo = await exchangeNodeInfo(secret, options.ourNodeInfo, phaseMs);
    checkRemoteNodeInfo(remoteNodeInfo, remoteId, options.ourNodeInfo);
    const mconnection = new MConnection(secret, options.channels, options.mconnection, {
      checkMessage: channelMessageProblem,
    });
    return new MConnectionPeer(mconnection, remoteNodeInfo, remoteId, remoteAddress, options.outbound);
  } catch (error) {
    secret.fail(error instanceof P2pError ? error : new P2pError("P2P_BAD_NODE_INFO", String(error)));
    throw error;
  }
}

/** Both sides write their NodeInfo at once, then read the peer's (≤ 10240 bytes). */
async function exchangeNodeInfo(
  secret: SecretConnection,
  ours: NodeInfo,
  timeoutMs: number,
): Promise<NodeInfo> {
  secret.writeMessage(encodeNodeInfo(ours));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new P2pError("P2P_HANDSHAKE_TIMEOUT", `NodeInfo exchange took over ${timeoutMs} ms`);
      secret.fail(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    const body = await Promise.race([secret.readMessage(MAX_NODE_INFO_SIZE), timeout]);
    return decodeNodeInfo(body);
  } catch (error) {
    if (error instanceof P2pError && error.code === "P2P_BAD_FRAME") {
      throw new P2pError("P2P_BAD_NODE_INFO", `NodeInfo: ${error.message}`);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** v0.34's order: Validate, then the ID matches the authenticated key, then not us, then CompatibleWith. */
export function checkRemoteNodeInfo(theirs: NodeInfo, authenticatedId: NodeId, ours: NodeInfo): void {
  const problem = nodeInfoProblem(theirs);
  if (problem !== undefined) throw new P2pError("P2P_BAD_NODE_INFO", `peer NodeInfo invalid: ${problem}`);
  if (theirs.defaultNodeId !== authenticatedId) {
    throw new P2pError(
      "P2P_ID_MISMATCH",
      `peer NodeInfo claims id ${theirs.defaultNodeId} but authenticated as ${authenticatedId}`,
    );
  }
  if (theirs.defaultNodeId === ours.defaultNodeId) throw new P2pError("P2P_SELF", "connected to ourselves");
  const incompatible = incompatibility(ours, theirs);
  if (incompatible !== undefined) throw new P2pError("P2P_INCOMPATIBLE", incompatible);
}

/** PeerConnection over an MConnection: sends only on channels the peer advertised. */
class MConnectionPeer implements PeerConnection {
  private readonly remoteChannels: Set<number>;

  constructor(
    private readonly mconnection: MConnection,
    readonly remoteNodeInfo: NodeInfo,
    readonly remoteId: NodeId,
    readonly remoteAddress: { host: string; port: number },
    readonly outbound: boolean,
  ) {
    this.remoteChannels = new Set(remoteNodeInfo.channels);
    // Started at once so a peer that hangs up or stops answering pings is noticed even before
    // the switch attaches listeners; messages wait in the MConnection until one is attached.
    mconnection.start();
  }

  send(channelId: number, message: Uint8Array): boolean {
    // A Go node kills the connection on a channel it does not have (trap 14): drop, as v0.34 does.
    if (!this.remoteChannels.has(channelId)) return false;
    return this.mconnection.send(channelId, message);
  }

  sendAll(channelId: number, messages: readonly Uint8Array[]): boolean {
    if (!this.remoteChannels.has(channelId)) return false;
    return this.mconnection.sendAll(channelId, messages);
  }

  onMessage(listener: (channelId: number, message: Uint8Array) => void): void {
    this.mconnection.onMessage(listener);
  }

  onClose(listener: (reason: PeerCloseReason) => void): void {
    this.mconnection.onClose(listener);
  }

  status(): ConnectionStatus {
    return this.mconnection.status();
  }

  close(reason: string): void {
    this.mconnection.close(reason);
  }
}
