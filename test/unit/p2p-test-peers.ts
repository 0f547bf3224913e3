// Helpers of the p2p transport tests: loopback socket pairs, node keys and NodeInfos.
import { connect, createServer, type Socket } from "node:net";
import { generateEd25519KeyPair } from "../../src/crypto/ed25519-keys.js";
import { channelIds, v034ChannelDescriptors } from "../../src/p2p/channels.js";
import { P2pError } from "../../src/p2p/errors.js";
import { DEFAULT_MCONNECTION_CONFIG } from "../../src/p2p/mconnection/mconnection.js";
import { nodeIdFromPublicKey } from "../../src/p2p/node-id.js";
import type { MConnectionConfig, NodeInfo, UpgradeOptions } from "../../src/p2p/types.js";

export interface SocketPair {
  /** The dialling side. */
  a: Socket;
  /** The accepting side. */
  b: Socket;
  close: () => void;
}

export function socketPair(): Promise<SocketPair> {
  return new Promise((resolve, reject) => {
    const server = createServer((b) => {
      server.close();
      resolve({
        a,
        b,
        close: () => {
          a.destroy();
          b.destroy();
        },
      });
    });
    let a: Socket;
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      a = connect(port, "127.0.0.1");
    });
  });
}

export interface TestNode {
  privateKey: Uint8Array;
  publicKey: Uint8Array;
  id: string;
  info: NodeInfo;
}

export function testNode(overrides: Partial<NodeInfo> = {}): TestNode {
  const keys = generateEd25519KeyPair();
  const id = nodeIdFromPublicKey(keys.publicKey);
  return {
    ...keys,
    id,
    info: {
      protocolVersion: { p2p: 8n, block: 11n, app: 0n },
      defaultNodeId: id,
      listenAddr: "tcp://127.0.0.1:26656",
      network: "test-chain",
      version: "0.34.35",
      channels: channelIds(v034ChannelDescriptors()),
      moniker: "test-node",
      other: { txIndex: "on", rpcAddress: "tcp://127.0.0.1:26657" },
      ...overrides,
    },
  };
}

export function upgradeOptions(
  node: TestNode,
  outbound: boolean,
  extra: Omit<Partial<UpgradeOptions>, "mconnection"> & { mconnection?: Partial<MConnectionConfig> } = {},
): UpgradeOptions {
  return {
    nodePrivateKey: node.privateKey,
    ourNodeInfo: node.info,
    handshakeTimeoutMs: 3000,
    channels: v034ChannelDescriptors(),
    outbound,
    ...extra,
    mconnection: { ...DEFAULT_MCONNECTION_CONFIG, ...extra.mconnection },
  };
}

/** Resolves when `predicate` holds, polling; rejects after `ms`. */
export async function eventually(predicate: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** An in-memory PacketTransport: what MConnection writes is recorded; tests feed what it reads. */
export class MemoryTransport {
  written: Uint8Array[] = [];
  paused = false;
  closedWith?: { code: string; message: string; graceful: boolean };
  private dataListener?: (chunk: Uint8Array) => void;
  private closeListeners: ((error: P2pError) => void)[] = [];
  private drainListeners: (() => void)[] = [];
  /** Optional: pass every written chunk to another transport (a connected pair). */
  peer?: MemoryTransport;
  /** false: a write is kept but answered as a socket whose kernel buffer is full (wait for drain()). */
  accepting = true;

  write(data: Uint8Array): boolean {
    if (this.closedWith) return false;
    this.written.push(data);
    if (this.peer) {
      const copy = data.slice();
      setImmediate(() => this.peer?.feed(copy));
    }
    return this.accepting;
  }
  /** The socket handed its bytes on ('drain'). */
  drain(): void {
    this.accepting = true;
    for (const l of this.drainListeners) l();
  }
  onData(listener: (chunk: Uint8Array) => void): void {
    this.dataListener = listener;
  }
  onDrain(listener: () => void): void {
    this.drainListeners.push(listener);
  }
  onClose(listener: (error: P2pError) => void): void {
    this.closeListeners.push(listener);
  }
  pause(): void {
    this.paused = true;
  }
  resume(): void {
    this.paused = false;
  }
  close(reason: P2pError): void {
    this.closedWith ??= { code: reason.code, message: reason.message, graceful: true };
  }
  fail(error: P2pError): void {
    this.closedWith ??= { code: error.code, message: error.message, graceful: false };
  }
  /** Bytes from the peer. */
  feed(chunk: Uint8Array): void {
    if (!this.closedWith) this.dataListener?.(chunk);
  }
  /** The peer hung up. */
  hangUp(): void {
    for (const l of this.closeListeners) l(new P2pError("P2P_CLOSED_BY_PEER", "connection closed"));
  }
  writtenBytes(): Buffer {
    return Buffer.concat(this.written);
  }
}
