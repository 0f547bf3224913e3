// A WebSocket client's bounded outgoing queue. Messages wait here while the socket's own
// buffer is above a high-water mark, so what a client that does not read can make us hold is
// bounded by a message count and a byte count; `offer` says when the queue is full, and the
// caller decides (cancel a subscription, close the connection). Urgent messages (a
// cancellation notice, at most one per subscription) skip the bounds.
import { ArrayQueue } from "./array-queue.js";

export interface MessageSink {
  send(text: string): void;
  /** bytes the transport holds that the peer has not taken yet */
  bufferedAmount(): number;
}

export interface OutboundLimits {
  maxMessages: number;
  maxBytes: number;
  /** stop handing messages to the socket while it holds more than this */
  highWaterBytes: number;
}

export class OutboundQueue {
  private readonly items = new ArrayQueue<string>();
  private bytes = 0;

  constructor(
    private readonly sink: MessageSink,
    private readonly limits: OutboundLimits,
  ) {}

  get length(): number {
    return this.items.length;
  }

  get queuedBytes(): number {
    return this.bytes;
  }

  /** Queues (or sends at once) a message; false, and nothing queued, when the queue is full. */
  offer(text: string): boolean {
    if (this.length === 0 && this.sink.bufferedAmount() < this.limits.highWaterBytes) {
      this.sink.send(text);
      return true;
    }
    // UTF-16 length is a lower bound of the bytes; good enough for a memory bound.
    if (this.length >= this.limits.maxMessages || this.bytes + text.length > this.limits.maxBytes)
      return false;
    this.items.push(text);
    this.bytes += text.length;
    this.flush();
    return true;
  }

  /** Sends after what is queued, whatever the bounds (callers bound how often they do this). */
  urgent(text: string): void {
    if (this.length === 0) {
      this.sink.send(text);
      return;
    }
    this.items.push(text);
    this.bytes += text.length;
  }

  /** Hands queued messages to the socket while it is below the high-water mark. */
  flush(): void {
    while (this.items.length > 0 && this.sink.bufferedAmount() < this.limits.highWaterBytes) {
      const text = this.items.shift() as string;
      this.bytes -= text.length;
      this.sink.send(text);
    }
  }

  clear(): void {
    this.items.clear();
    this.bytes = 0;
  }
}
