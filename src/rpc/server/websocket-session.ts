// One WebSocket connection, whatever the transport: messages are answered one at a time and
// in order (as Tendermint's read loop does), every route is callable, subscribe/unsubscribe go
// to the hub, and all output goes through one bounded queue. A client that sends faster than
// it is answered, or stops reading its answers, is closed rather than allowed to grow memory.

import type { Dispatcher } from "../jsonrpc/dispatch.js";
import type { JsonRpcId } from "../jsonrpc/envelope.js";
import type { RouteEnv, WebSocketCallSite } from "../route-spec.js";
import type { SubscriberConnection, SubscriptionHub } from "../subscriptions/hub.js";
import { type OutboundLimits, OutboundQueue } from "../subscriptions/outbound-queue.js";

export interface WebSocketTransport {
  send(text: string): void;
  bufferedAmount(): number;
  close(code: number, reason: string): void;
}

export interface SessionLimits extends OutboundLimits {
  /** requests received and not yet answered */
  maxPendingRequests: number;
  maxPendingBytes: number;
}

export interface SessionLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export class WebSocketSession implements SubscriberConnection {
  private readonly queue: OutboundQueue;
  private readonly pending: string[] = [];
  private pendingBytes = 0;
  private running = false;
  private closed = false;

  constructor(
    readonly remoteAddress: string,
    private readonly transport: WebSocketTransport,
    private readonly dispatcher: Dispatcher,
    private readonly hub: SubscriptionHub,
    private readonly baseEnv: Omit<RouteEnv, "webSocket" | "remoteAddress">,
    private readonly limits: SessionLimits,
    private readonly logger: SessionLogger,
  ) {
    this.queue = new OutboundQueue(
      { send: (text) => this.transport.send(text), bufferedAmount: () => this.transport.bufferedAmount() },
      limits,
    );
  }

  get isClosed(): boolean {
    return this.closed;
  }

  onMessage(text: string): void {
    if (this.closed) return;
    if (
      this.pending.length >= this.limits.maxPendingRequests ||
      this.pendingBytes + text.length > this.limits.maxPendingBytes
    ) {
      this.close(1008, "too many requests waiting for an answer");
      return;
    }
    this.pending.push(text);
    this.pendingBytes += text.length;
    if (!this.running) void this.drainRequests();
  }

  onDrain(): void {
    if (!this.closed) this.queue.flush();
  }

  /** The transport closed (by either side). */
  onClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending.length = 0;
    this.queue.clear();
    this.hub.disconnect(this);
  }

  deliver(text: string): boolean {
    if (this.closed) return true;
    return this.queue.offer(text);
  }

  deliverUrgent(text: string): void {
    if (!this.closed) this.queue.urgent(text);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.logger.debug("closing websocket", { remote: this.remoteAddress, reason });
    this.transport.close(code, reason);
    this.onClose();
  }

  private envFor(id: JsonRpcId): RouteEnv {
    const callSite: WebSocketCallSite = {
      remoteAddress: this.remoteAddress,
      requestId: id,
      subscribe: (query) => this.hub.subscribe(this, query, id),
      unsubscribe: (query) => this.hub.unsubscribe(this, query),
      unsubscribeAll: () => this.hub.unsubscribeAll(this),
    };
    return { ...this.baseEnv, remoteAddress: this.remoteAddress, webSocket: callSite };
  }

  private async drainRequests(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.length > 0 && !this.closed) {
        const text = this.pending.shift() as string;
        this.pendingBytes -= text.length;
        let response: string | undefined;
        try {
          response = await this.dispatcher.handleWebSocketMessage(text, (id) => this.envFor(id));
        } catch (error) {
          this.logger.error("websocket request failed unexpectedly", { err: String(error) });
          continue;
        }
        if (response === undefined || this.closed) continue;
        if (!this.queue.offer(response)) this.close(1008, "client is not reading its responses");
      }
    } finally {
      this.running = false;
    }
  }
}
