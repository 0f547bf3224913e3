// Serving channel 0x40 from the block store, as v0.34 does whether or not we sync: our status
// (base, height) to every peer when it is added and whenever it asks, and blocks on request
// (NoBlockResponse when we lack one).
//
// Bounded per peer: every 0x40 message to a peer goes through `send` here, which remembers the
// sizes of the messages still in that peer's channel queue (the connection reports how many are
// queued; they leave in order). A peer's block requests wait in a queue of at most the channel's
// send capacity (1000, more are dropped as v0.34's TrySend drops them) while its queued bytes are
// at or over `maxQueuedBytes`; one block always goes when nothing is queued, whatever its size.
import type { Logger } from "../../src/logger/index.js";
import {
  BLOCKSYNC_CHANNEL,
  encodeBlockResponseFromBytes,
  encodeNoBlockResponse,
  encodeStatusResponse,
} from "../../src/p2p/blocksync-wire.js";
import type { BlockStore } from "../../src/store/block-store.js";
import type { PeerHub } from "../sources/peers.js";

/** v0.34's send-queue capacity of channel 0x40: also how many requests of one peer wait here. */
export const BLOCKSYNC_SEND_QUEUE = 1000;
/** Default bytes of blocks queued to one peer before its next request waits. */
export const DEFAULT_SERVE_QUEUED_BYTES = 16 * 1024 * 1024;
/** How often a peer waiting on its byte bound is looked at again. */
const RETRY_MS = 5;

interface ServedPeer {
  /** Sizes of the messages handed to its connection, oldest first (at most the queue capacity). */
  sent: number[];
  requests: bigint[];
  pumping: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class BlockServer {
  readonly #peers = new Map<string, ServedPeer>();
  #stopped = false;

  constructor(
    private readonly hub: Pick<PeerHub, "send" | "get">,
    private readonly blockStore: Pick<BlockStore, "base" | "height" | "loadBlockBytes">,
    private readonly maxQueuedBytes: number,
    private readonly log: Logger,
  ) {}

  /** Bytes of our 0x40 messages still queued to `peerId`. */
  queuedBytes(peerId: string): number {
    const peer = this.#peers.get(peerId);
    if (peer === undefined) return 0;
    const channel = this.hub
      .get(peerId)
      ?.status()
      .channels.find((c) => c.id === BLOCKSYNC_CHANNEL);
    const queued = Math.min(channel?.sendQueueSize ?? 0, peer.sent.length);
    peer.sent.splice(0, peer.sent.length - queued);
    let bytes = 0;
    for (const size of peer.sent) bytes += size;
    return bytes;
  }

  /** Every 0x40 message to a peer goes out here; false when its queue is full or it is gone. */
  send(peerId: string, bytes: Uint8Array): boolean {
    if (!this.hub.send(peerId, BLOCKSYNC_CHANNEL, bytes)) return false;
    const peer = this.#peer(peerId);
    peer.sent.push(bytes.length);
    if (peer.sent.length > BLOCKSYNC_SEND_QUEUE) peer.sent.shift();
    return true;
  }

  sendStatus(peerId: string): void {
    this.send(peerId, encodeStatusResponse(this.blockStore.base(), this.blockStore.height()));
  }

  request(peerId: string, height: bigint): void {
    const peer = this.#peer(peerId);
    if (peer.requests.length >= BLOCKSYNC_SEND_QUEUE) {
      this.log.debug("dropped a block request over the queue", { peer: peerId, height });
      return;
    }
    peer.requests.push(height);
    void this.#pump(peerId, peer);
  }

  forget(peerId: string): void {
    const peer = this.#peers.get(peerId);
    if (peer?.timer !== undefined) clearTimeout(peer.timer);
    this.#peers.delete(peerId);
  }

  stop(): void {
    this.#stopped = true;
    for (const id of [...this.#peers.keys()]) this.forget(id);
  }

  #peer(peerId: string): ServedPeer {
    let peer = this.#peers.get(peerId);
    if (peer === undefined) {
      peer = { sent: [], requests: [], pumping: false, timer: undefined };
      this.#peers.set(peerId, peer);
    }
    return peer;
  }

  async #pump(peerId: string, peer: ServedPeer): Promise<void> {
    if (peer.pumping || this.#stopped) return;
    peer.pumping = true;
    try {
      while (peer.requests.length > 0 && this.#peers.get(peerId) === peer) {
        const queued = this.queuedBytes(peerId);
        if (queued > 0 && queued >= this.maxQueuedBytes) {
          if (peer.timer === undefined)
            peer.timer = setTimeout(() => {
              peer.timer = undefined;
              void this.#pump(peerId, peer);
            }, RETRY_MS);
          return;
        }
        const height = peer.requests.shift()!;
        let bytes: Uint8Array | undefined;
        try {
          bytes = await this.blockStore.loadBlockBytes(height);
        } catch (error) {
          this.log.error("cannot read a block to serve", { height, err: (error as Error).message });
          bytes = undefined;
        }
        this.send(
          peerId,
          bytes === undefined ? encodeNoBlockResponse(height) : encodeBlockResponseFromBytes(bytes),
        );
      }
    } finally {
      peer.pumping = false;
    }
  }
}
