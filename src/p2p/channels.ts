// Every channel a v0.34 node registers, with the priorities, send-queue and receive capacities
// its reactors declare (GetChannels() in v0.34.35), so our send scheduling and our limits on
// what a peer may send match a Go node's.

import { varintLength } from "../wire/varint-bytes.js";
import type { ChannelDescriptor } from "./types.js";

export const CHANNEL_PEX = 0x00;
export const CHANNEL_CONSENSUS_STATE = 0x20;
export const CHANNEL_CONSENSUS_DATA = 0x21;
export const CHANNEL_CONSENSUS_VOTE = 0x22;
export const CHANNEL_CONSENSUS_VOTE_SET_BITS = 0x23;
export const CHANNEL_MEMPOOL = 0x30;
export const CHANNEL_EVIDENCE = 0x38;
export const CHANNEL_BLOCKSYNC = 0x40;
export const CHANNEL_STATESYNC_SNAPSHOT = 0x60;
export const CHANNEL_STATESYNC_CHUNK = 0x61;

/** v0.34's defaults for a descriptor field left at zero. */
export const DEFAULT_SEND_QUEUE_CAPACITY = 1;
export const DEFAULT_RECV_BUFFER_CAPACITY = 4096;
export const DEFAULT_RECV_MESSAGE_CAPACITY = 22020096; // 21 MiB

/** [mempool] max_tx_bytes default; the mempool channel's capacity derives from it. */
export const DEFAULT_MAX_TX_BYTES = 1048576;

/** Size of mempool Message{txs{[maxTxBytes bytes]}}: the largest single-tx message (1048584 by default). */
export function mempoolRecvMessageCapacity(maxTxBytes: number): number {
  const txs = 1 + varintLength(maxTxBytes) + maxTxBytes;
  return 1 + varintLength(txs) + txs;
}

export interface ChannelSetOptions {
  /** [mempool] max_tx_bytes of this node (the receiver): bounds what peers may send on 0x30. */
  maxTxBytes?: number;
  /** [p2p] pex: adds channel 0x00. */
  pex?: boolean;
}

/**
 * Our channel descriptors, in the order v0.34 advertises them in NodeInfo:
 * 40 20 21 22 23 30 38 60 61, then 00 when PEX is on.
 */
export function v034ChannelDescriptors(options: ChannelSetOptions = {}): ChannelDescriptor[] {
  const maxTxBytes = options.maxTxBytes ?? DEFAULT_MAX_TX_BYTES;
  const d = (
    id: number,
    priority: number,
    sendQueueCapacity: number,
    recvBufferCapacity: number,
    recvMessageCapacity: number,
  ): ChannelDescriptor => ({ id, priority, sendQueueCapacity, recvBufferCapacity, recvMessageCapacity });
  // The consensus channels carry a height's critical path (proposal, parts, votes): they flush in
  // the turn they are queued. Mempool, evidence, block sync and PEX traffic is bulk and keeps
  // gathering for flush_throttle_timeout, as v0.34 does for every channel.
  const prompt = (c: ChannelDescriptor): ChannelDescriptor => ({ ...c, flushPromptly: true });
  const channels = [
    d(CHANNEL_BLOCKSYNC, 5, 1000, 50 * 4096, 104857600 + 4 + 1),
    prompt(d(CHANNEL_CONSENSUS_STATE, 6, 100, DEFAULT_RECV_BUFFER_CAPACITY, 1048576)),
    prompt(d(CHANNEL_CONSENSUS_DATA, 10, 100, 50 * 4096, 1048576)),
    prompt(d(CHANNEL_CONSENSUS_VOTE, 7, 100, 100 * 100, 1048576)),
    prompt(d(CHANNEL_CONSENSUS_VOTE_SET_BITS, 1, 2, 1024, 1048576)),
    d(CHANNEL_MEMPOOL, 5, 1, DEFAULT_RECV_BUFFER_CAPACITY, mempoolRecvMessageCapacity(maxTxBytes)),
    d(CHANNEL_EVIDENCE, 6, 1, DEFAULT_RECV_BUFFER_CAPACITY, 1048576),
    d(CHANNEL_STATESYNC_SNAPSHOT, 5, 10, DEFAULT_RECV_BUFFER_CAPACITY, 4000000),
    d(CHANNEL_STATESYNC_CHUNK, 3, 10, DEFAULT_RECV_BUFFER_CAPACITY, 16000000),
  ];
  if (options.pex ?? true) channels.push(d(CHANNEL_PEX, 1, 10, DEFAULT_RECV_BUFFER_CAPACITY, 64000));
  return channels;
}

/** Fills zero fields with v0.34's defaults (a reactor may declare only id and priority). */
export function withChannelDefaults(descriptor: ChannelDescriptor): ChannelDescriptor {
  return {
    id: descriptor.id,
    priority: descriptor.priority,
    sendQueueCapacity: descriptor.sendQueueCapacity || DEFAULT_SEND_QUEUE_CAPACITY,
    recvBufferCapacity: descriptor.recvBufferCapacity || DEFAULT_RECV_BUFFER_CAPACITY,
    recvMessageCapacity: descriptor.recvMessageCapacity || DEFAULT_RECV_MESSAGE_CAPACITY,
    flushPromptly: descriptor.flushPromptly ?? false,
  };
}

/** The channel ids of a descriptor list, as NodeInfo.channels. */
export function channelIds(descriptors: readonly ChannelDescriptor[]): Uint8Array {
  return Uint8Array.from(descriptors.map((c) => c.id));
}
