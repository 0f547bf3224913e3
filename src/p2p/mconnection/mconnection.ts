// The multiplexed connection (v0.34's MConnection) over an authenticated byte stream: messages
// of many channels cut into PacketMsgs of at most max_packet_msg_payload_size bytes, sent by
// priority (lowest recentlySent/priority first), batched and flushed at most every
// flush_throttle_timeout (or, once a packet of a flushPromptly channel is batched, at the end of
// the turn: Node's turn already gathers everything queued together; full batches follow one
// another in the same turn while the socket takes them), limited to send_rate /
// recv_rate, kept alive by ping/pong, and reassembled per channel up to each channel's receive
// capacity. Anything malformed from the
// peer ends this connection only, with a P2pError code and a reason.

import { ByteQueue, peekUvarint } from "../byte-queue.js";
import { withChannelDefaults } from "../channels.js";
import { P2pError } from "../errors.js";
import type {
  ChannelDescriptor,
  ChannelStatus,
  ConnectionStatus,
  MConnectionConfig,
  PeerCloseReason,
} from "../types.js";
import { FlowMonitor, RateLimiter } from "./flow-monitor.js";
import {
  decodePacket,
  maxPacketBodySize,
  PING_DELIMITED,
  PONG_DELIMITED,
  packetMsgDelimitedLength,
  writePacketMsgDelimited,
} from "./packet.js";

/** The byte stream an MConnection runs on (a SecretConnection, or a plain pipe in tests). */
export interface PacketTransport {
  write(data: Uint8Array): boolean;
  /**
   * Hands over what is read, in order. A chunk is the listener's from then on: the transport never
   * writes into it again (a SecretConnection's chunks are each frame's own decrypted bytes), so
   * the messages delivered are views of them, not copies.
   */
  onData(listener: (chunk: Uint8Array) => void): void;
  onDrain(listener: () => void): void;
  onClose(listener: (error: P2pError) => void): void;
  pause(): void;
  resume(): void;
  /** Graceful: flush, then end. */
  close(reason: P2pError): void;
  /** Immediate. */
  fail(error: P2pError): void;
}

/** v0.34's defaults: [p2p] send_rate/recv_rate 5120000, payload 1024, flush 100 ms, ping 60 s, pong 45 s. */
export const DEFAULT_MCONNECTION_CONFIG: MConnectionConfig = {
  sendRate: 5120000,
  recvRate: 5120000,
  maxPacketMsgPayloadSize: 1024,
  flushThrottleMs: 100,
  pingIntervalMs: 60_000,
  pongTimeoutMs: 45_000,
};

/** Go's bufio writer size: a batch is flushed as soon as it reaches this many bytes. */
const WRITE_BATCH_BYTES = 65536;
/**
 * The most one connection writes in one event-loop turn: the send limiter's burst at the default
 * send_rate (512,000 bytes), rounded up to whole batches, so a whole block's parts to one peer
 * leave together while a turn's encryption stays near a millisecond.
 */
const MAX_BYTES_PER_TURN = 8 * WRITE_BATCH_BYTES;
/** recentlySent decays by 0.8 every 2 s, so a burst on one channel does not starve it forever. */
const RECENTLY_SENT_DECAY_MS = 2000;

export interface MConnectionOptions {
  /**
   * Checks a reassembled message before it is delivered; a returned string closes the
   * connection with P2P_BAD_MESSAGE (v0.34 stops a peer whose message does not decode).
   */
  checkMessage?: (channelId: number, message: Uint8Array) => string | undefined;
  now?: () => number;
}

interface Channel {
  readonly descriptor: ChannelDescriptor;
  readonly queue: Uint8Array[];
  /** Offset into queue[0] of the next byte to send. */
  sendOffset: number;
  recentlySent: number;
  recvParts: Uint8Array[];
  recvSize: number;
}

export class MConnection {
  private readonly channels = new Map<number, Channel>();
  private readonly channelList: Channel[] = [];
  private readonly recvQueue = new ByteQueue();
  private readonly maxPacketBody: number;
  private readonly sendMonitor: FlowMonitor;
  private readonly recvMonitor: FlowMonitor;
  private readonly sendLimiter: RateLimiter;
  private readonly recvLimiter: RateLimiter;
  private readonly startedAt: number;
  private readonly now: () => number;
  /**
   * The write batch: packets are written straight into it (room for one more packet past
   * WRITE_BATCH_BYTES), and a flush copies out what it holds, so a packet costs no buffer of its
   * own and no copy into a list.
   */
  private readonly batch: Uint8Array;
  private batchBytes = 0;
  /** The batch holds a packet of a flushPromptly channel: it goes out when this turn's sending ends. */
  private batchUrgent = false;
  private sendScheduled = false;
  /** A send of a flushPromptly channel is queued to run once the current callback's work is done. */
  private promptSendQueued = false;
  /**
   * Bytes written in this event-loop turn (set back to 0 by an immediate queued with the first):
   * past MAX_BYTES_PER_TURN the rest waits for the next turn, prompt sends included.
   */
  private turnBytes = 0;
  private sendTimer?: NodeJS.Timeout;
  private flushTimer?: NodeJS.Timeout;
  private pingTimer?: NodeJS.Timeout;
  private pongTimer?: NodeJS.Timeout;
  private decayTimer?: NodeJS.Timeout;
  private recvResumeTimer?: NodeJS.Timeout;
  private writeBlocked = false;
  private closedWith?: PeerCloseReason;
  private readonly messageListeners: ((channelId: number, message: Uint8Array) => void)[] = [];
  private readonly closeListeners: ((reason: PeerCloseReason) => void)[] = [];
  private readonly undelivered: [number, Uint8Array][] = [];

  constructor(
    private readonly transport: PacketTransport,
    channels: readonly ChannelDescriptor[],
    private readonly config: MConnectionConfig,
    private readonly options: MConnectionOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    for (const raw of channels) {
      const descriptor = withChannelDefaults(raw);
      if (this.channels.has(descriptor.id))
        throw new Error(`mconnection: channel ${descriptor.id} registered twice`);
      const channel: Channel = {
        descriptor,
        queue: [],
        sendOffset: 0,
        recentlySent: 0,
        recvParts: [],
        recvSize: 0,
      };
      this.channels.set(descriptor.id, channel);
      this.channelList.push(channel);
    }
    this.maxPacketBody = maxPacketBodySize(config.maxPacketMsgPayloadSize);
    // Channel ids are one byte; 0xff has the longest varint.
    this.batch = new Uint8Array(
      WRITE_BATCH_BYTES + packetMsgDelimitedLength(0xff, true, config.maxPacketMsgPayloadSize),
    );
    this.startedAt = this.now();
    this.sendMonitor = new FlowMonitor(this.now);
    this.recvMonitor = new FlowMonitor(this.now);
    // Bursts of ~100 ms worth of traffic, but never less than two full packets or one batch.
    const burst = (rate: number) => Math.max(rate / 10, 2 * (this.maxPacketBody + 2));
    this.sendLimiter = new RateLimiter(config.sendRate, burst(config.sendRate), this.now);
    this.recvLimiter = new RateLimiter(config.recvRate, burst(config.recvRate), this.now);
  }

  /** Starts reading, pinging and decaying; call once, after listeners are attached. */
  start(): void {
    this.transport.onClose((error) => this.finish({ code: error.code, message: error.message }));
    this.transport.onDrain(() => {
      this.writeBlocked = false;
      this.scheduleSend();
    });
    this.transport.onData((chunk) => this.onData(chunk));
    this.pingTimer = setInterval(() => this.sendPing(), this.config.pingIntervalMs);
    this.decayTimer = setInterval(() => {
      for (const channel of this.channelList) channel.recentlySent *= 0.8;
    }, RECENTLY_SENT_DECAY_MS);
    this.pingTimer.unref?.();
    this.decayTimer.unref?.();
  }

  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  /** Queues a message; false when the channel is unknown, its queue is full, or we are closed. */
  send(channelId: number, message: Uint8Array): boolean {
    if (this.closedWith !== undefined) return false;
    const channel = this.channels.get(channelId);
    if (channel === undefined) return false;
    if (channel.queue.length >= channel.descriptor.sendQueueCapacity) return false;
    channel.queue.push(message);
    this.scheduleSend(channel.descriptor.flushPromptly);
    return true;
  }

  /**
   * Queues several messages of one channel together, in order: all of them when the queue has a
   * free place, none otherwise, as one send would be taken (so the queue holds at most one group
   * beyond capacity − 1 messages; the caller bounds a group's size). Each
   * message is still cut into its own packets, with its own eof: the wire is what the same
   * messages sent one by one give.
   */
  sendAll(channelId: number, messages: readonly Uint8Array[]): boolean {
    if (this.closedWith !== undefined) return false;
    const channel = this.channels.get(channelId);
    if (channel === undefined) return false;
    if (channel.queue.length >= channel.descriptor.sendQueueCapacity) return false;
    for (const message of messages) channel.queue.push(message);
    this.scheduleSend(channel.descriptor.flushPromptly);
    return true;
  }

  /** Adds a listener; messages that arrived before the first one are delivered to it next turn. */
  onMessage(listener: (channelId: number, message: Uint8Array) => void): void {
    this.messageListeners.push(listener);
    if (this.messageListeners.length === 1 && this.undelivered.length > 0) {
      setImmediate(() => {
        const waiting = this.undelivered.splice(0);
        for (const [channelId, message] of waiting) {
          if (this.closedWith !== undefined) return;
          try {
            this.deliver(channelId, message);
          } catch (error) {
            this.fail(error as P2pError);
            return;
          }
        }
        this.transport.resume();
      });
    }
  }

  onClose(listener: (reason: PeerCloseReason) => void): void {
    if (this.closedWith !== undefined) listener(this.closedWith);
    else this.closeListeners.push(listener);
  }

  /**
   * Closes gracefully, as v0.34's FlushStop: every message already queued is packetised and
   * written first (bounded by the queue capacities), then the stream ends.
   */
  close(reason: string): void {
    if (this.closedWith !== undefined) return;
    for (let channel = this.nextChannel(); channel !== undefined; channel = this.nextChannel()) {
      this.batchPacket(channel);
      if (this.batchBytes >= WRITE_BATCH_BYTES) this.flush();
    }
    this.flush();
    const error = new P2pError("P2P_CLOSED_BY_US", reason);
    this.finish({ code: error.code, message: reason });
    this.transport.close(error);
  }

  status(): ConnectionStatus {
    const channels: ChannelStatus[] = this.channelList.map((c) => ({
      id: c.descriptor.id,
      sendQueueCapacity: c.descriptor.sendQueueCapacity,
      sendQueueSize: c.queue.length,
      priority: c.descriptor.priority,
      recentlySent: Math.round(c.recentlySent),
    }));
    return {
      duration: Math.round((this.now() - this.startedAt) * 1e6),
      sendMonitor: this.sendMonitor.status(),
      recvMonitor: this.recvMonitor.status(),
      channels,
    };
  }

  // ---- receiving ----

  private onData(chunk: Uint8Array): void {
    if (this.closedWith !== undefined) return;
    this.recvMonitor.update(chunk.length);
    this.recvLimiter.consume(chunk.length);
    this.recvQueue.push(chunk);
    this.readPackets();
    if (this.closedWith === undefined && !this.recvLimiter.ready() && this.recvResumeTimer === undefined) {
      // Over recv_rate: stop reading the socket until the budget is repaid (TCP pushes back).
      this.transport.pause();
      this.recvResumeTimer = setTimeout(() => {
        this.recvResumeTimer = undefined;
        if (this.undelivered.length === 0) this.transport.resume();
      }, this.recvLimiter.waitMs());
    }
  }

  private readPackets(): void {
    while (this.closedWith === undefined) {
      const prefix = peekUvarint(this.recvQueue);
      if (prefix === undefined) return;
      if (prefix === "overflow" || prefix.value > this.maxPacketBody) {
        const length = prefix === "overflow" ? "an overlong varint" : String(prefix.value);
        this.fail(
          new P2pError("P2P_PACKET_TOO_LARGE", `packet length ${length} exceeds ${this.maxPacketBody} bytes`),
        );
        return;
      }
      if (this.recvQueue.length < prefix.length + prefix.value) return;
      this.recvQueue.skip(prefix.length);
      const body = this.recvQueue.take(prefix.value);
      try {
        this.handlePacket(body);
      } catch (error) {
        this.fail(error instanceof P2pError ? error : new P2pError("P2P_BAD_PACKET", String(error)));
        return;
      }
    }
  }

  private handlePacket(body: Uint8Array): void {
    const packet = decodePacket(body);
    if (packet.type === "ping") {
      // Pongs go out at once, ahead of the data batch (v0.34 flushes them immediately).
      this.flush();
      this.writeRaw(PONG_DELIMITED);
      return;
    }
    if (packet.type === "pong") {
      if (this.pongTimer !== undefined) clearTimeout(this.pongTimer);
      this.pongTimer = undefined;
      return;
    }
    const channel = this.channels.get(packet.channelId);
    if (channel === undefined) {
      throw new P2pError("P2P_UNKNOWN_CHANNEL", `unknown channel 0x${packet.channelId.toString(16)}`);
    }
    const capacity = channel.descriptor.recvMessageCapacity;
    if (channel.recvSize + packet.data.length > capacity) {
      throw new P2pError(
        "P2P_MESSAGE_TOO_LARGE",
        `message on channel 0x${channel.descriptor.id.toString(16)} exceeds its capacity of ${capacity} bytes`,
      );
    }
    // A view, not a copy: no chunk is written again once received (PacketTransport.onData). A
    // message of one packet (a tx, a vote) is delivered as that view: a copy here was an
    // ArrayBuffer of its own per message, ~1.6 % of a network node's time under load (most of
    // them a peer's copy of a tx we already have, turned away at once); one of several packets
    // is copied once, by concat.
    const data = packet.data;
    // A plain Uint8Array, whatever the transport's chunks are: a Buffer's slice() is a view where
    // a Uint8Array's is a copy, and a reactor may count on either.
    const view =
      data.constructor === Uint8Array ? data : new Uint8Array(data.buffer, data.byteOffset, data.length);
    let message: Uint8Array;
    if (channel.recvSize === 0 && packet.eof) {
      // The usual message of one packet: no parts list to fill and empty again.
      message = view;
    } else {
      if (data.length > 0) {
        channel.recvParts.push(view);
        channel.recvSize += data.length;
      }
      if (!packet.eof) return;
      message = concat(channel.recvParts, channel.recvSize);
      // Emptied in place: concat kept no reference to the list, only to its parts.
      channel.recvParts.length = 0;
      channel.recvSize = 0;
    }
    const problem = this.options.checkMessage?.(channel.descriptor.id, message);
    if (problem !== undefined) {
      throw new P2pError("P2P_BAD_MESSAGE", `channel 0x${channel.descriptor.id.toString(16)}: ${problem}`);
    }
    if (this.messageListeners.length === 0) {
      // Nobody listens yet (the switch is still admitting the peer): hold it and stop reading.
      this.undelivered.push([channel.descriptor.id, message]);
      this.transport.pause();
      return;
    }
    this.deliver(channel.descriptor.id, message);
  }

  private deliver(channelId: number, message: Uint8Array): void {
    for (const listener of this.messageListeners) {
      try {
        listener(channelId, message);
      } catch (error) {
        // A reactor that cannot take the message stops this peer, as v0.34's recovered panic does.
        throw new P2pError(
          "P2P_BAD_MESSAGE",
          `channel 0x${channelId.toString(16)}: ${(error as Error).message}`,
        );
      }
    }
  }

  // ---- sending ----

  /**
   * Runs sendSome soon: for a flushPromptly channel (a proposal, its parts, a vote) as soon as the
   * work that queued it is done (a microtask), for bulk in the next turn (setImmediate). Under load
   * a turn's poll phase holds many callbacks (RPC batches and their CheckTx, peers' reads), and a
   * vote that waited for the turn's end waited for all of them: each hop of a height paid it once
   * on the sender. Everything one fold queues (a pass's parts, a vote to three peers) is still
   * queued before the microtask runs, so it leaves in the same writes as before.
   */
  private scheduleSend(promptly = false): void {
    if (this.sendTimer !== undefined || this.closedWith !== undefined) return;
    if (promptly && this.turnBytes < MAX_BYTES_PER_TURN) {
      if (this.promptSendQueued) return;
      this.promptSendQueued = true;
      queueMicrotask(() => {
        this.promptSendQueued = false;
        if (this.sendTimer === undefined && this.turnBytes < MAX_BYTES_PER_TURN) this.sendSome();
      });
      return;
    }
    if (this.sendScheduled) return;
    this.sendScheduled = true;
    setImmediate(() => {
      this.sendScheduled = false;
      this.sendSome();
    });
  }

  /**
   * Writes packets by priority until the queues are empty, the rate limit bites, the socket stops
   * taking bytes, or MAX_BYTES_PER_TURN went out in this turn. Each full batch is written at
   * once and the loop goes on while the socket takes it: a proposal's block parts leave as fast as
   * send_rate allows, instead of one 64 KiB batch per event-loop turn, which under load (a turn
   * holding CheckTx answers, folds, a block's execution) kept the tenth part of a block waiting
   * hundreds of milliseconds behind turns that had nothing to do with this connection.
   */
  private sendSome(): void {
    if (this.closedWith !== undefined || this.writeBlocked) return;
    for (;;) {
      if (!this.sendLimiter.ready()) {
        this.flush();
        this.sendTimer = setTimeout(() => {
          this.sendTimer = undefined;
          this.sendSome();
        }, this.sendLimiter.waitMs());
        return;
      }
      const channel = this.nextChannel();
      if (channel === undefined) break;
      this.sendLimiter.consume(this.batchPacket(channel));
      if (this.batchBytes < WRITE_BATCH_BYTES) continue;
      this.countTurnBytes(this.batchBytes);
      this.flush();
      // The socket holds what it could not hand on: its 'drain' resumes us.
      if (this.writeBlocked || this.closedWith !== undefined) return;
      if (this.turnBytes >= MAX_BYTES_PER_TURN) {
        // Other connections and the node's own work get the CPU; the rest goes next turn.
        this.scheduleSend();
        return;
      }
    }
    if (this.batchUrgent) {
      this.flush();
    } else if (this.batchBytes > 0 && this.flushTimer === undefined) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        this.flush();
      }, this.config.flushThrottleMs);
    }
  }

  private countTurnBytes(bytes: number): void {
    if (this.turnBytes === 0)
      setImmediate(() => {
        this.turnBytes = 0;
      });
    this.turnBytes += bytes;
  }

  /** Appends the channel's next packet to the write batch; returns its size. */
  private batchPacket(channel: Channel): number {
    const message = channel.queue[0];
    const end = Math.min(message.length, channel.sendOffset + this.config.maxPacketMsgPayloadSize);
    const eof = end === message.length;
    const data = message.subarray(channel.sendOffset, end);
    const length = packetMsgDelimitedLength(channel.descriptor.id, eof, data.length);
    this.batchBytes = writePacketMsgDelimited(this.batch, this.batchBytes, channel.descriptor.id, eof, data);
    if (eof) {
      channel.queue.shift();
      channel.sendOffset = 0;
    } else channel.sendOffset = end;
    channel.recentlySent += length;
    if (channel.descriptor.flushPromptly) this.batchUrgent = true;
    return length;
  }

  /** The channel with pending data and the lowest recentlySent / priority. */
  private nextChannel(): Channel | undefined {
    let best: Channel | undefined;
    let bestRatio = Number.POSITIVE_INFINITY;
    for (const channel of this.channelList) {
      if (channel.queue.length === 0) continue;
      const ratio = channel.recentlySent / channel.descriptor.priority;
      if (ratio < bestRatio) {
        best = channel;
        bestRatio = ratio;
      }
    }
    return best;
  }

  private flush(): void {
    if (this.flushTimer !== undefined) {
      clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
    }
    this.batchUrgent = false;
    if (this.batchBytes === 0) return;
    // A copy: the transport may keep what it is given (a socket's queue), and the batch is reused.
    const data = this.batch.slice(0, this.batchBytes);
    this.batchBytes = 0;
    this.writeRaw(data);
  }

  private writeRaw(data: Uint8Array): void {
    if (this.closedWith !== undefined) return;
    this.sendMonitor.update(data.length);
    if (!this.transport.write(data)) this.writeBlocked = true;
  }

  private sendPing(): void {
    if (this.closedWith !== undefined) return;
    this.flush();
    this.writeRaw(PING_DELIMITED);
    if (this.pongTimer === undefined) {
      this.pongTimer = setTimeout(
        () =>
          this.fail(
            new P2pError("P2P_PONG_TIMEOUT", `no pong within ${this.config.pongTimeoutMs} ms of our ping`),
          ),
        this.config.pongTimeoutMs,
      );
    }
  }

  // ---- ending ----

  private fail(error: P2pError): void {
    if (this.closedWith !== undefined) return;
    this.finish({ code: error.code, message: error.message });
    this.transport.fail(error);
  }

  private finish(reason: PeerCloseReason): void {
    if (this.closedWith !== undefined) return;
    this.closedWith = reason;
    for (const timer of [
      this.sendTimer,
      this.pingTimer,
      this.pongTimer,
      this.decayTimer,
      this.recvResumeTimer,
    ]) {
      if (timer !== undefined) clearTimeout(timer);
    }
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.sendMonitor.done();
    this.recvMonitor.done();
    this.recvQueue.clear();
    for (const channel of this.channelList) {
      channel.queue.length = 0;
      channel.recvParts = [];
    }
    const listeners = this.closeListeners.splice(0);
    for (const listener of listeners) listener(reason);
  }
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
