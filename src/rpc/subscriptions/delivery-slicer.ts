// Delivers the node's events to WebSocket subscribers on later turns of the event loop, in
// slices, instead of inside the fold that published them. A block's events are published as the
// node folds its commit; writing every subscriber's message there lengthened the height by the
// whole fan-out (11 messages per tx at the fan-out bench's mix). Here `push` only queues, and the
// queue is worked off in slices of at most `messagesPerSlice` messages and `sliceMs` of time, each
// on its own `setImmediate` turn, so the node's own work (the next proposal, timeouts, RPC
// requests) runs between them.
//
// One FIFO for every event keeps the order each subscriber sees: events in the order they were
// published (heights in order, a height's NewBlock before its Tx events, txs in block order).
// The queue is bounded: past `maxPending` waiting events, `push` delivers the oldest at once,
// in the publisher's run, until `maxPending` wait. Nothing is dropped there; the node waits for
// the fan-out, as Tendermint's event bus blocks its publisher while its pubsub loop is busy. A
// subscriber too slow to take its messages is still cancelled by its connection's own bound.
import { ArrayQueue } from "./array-queue.js";

export interface SliceLimits {
  /** events waiting to be delivered before `push` delivers in the publisher's run */
  readonly maxPending: number;
  /** messages handed to connections per slice, at most (a slice ends after the event that passes it) */
  readonly messagesPerSlice: number;
  /** time a slice may run, at most (checked after each event) */
  readonly sliceMs: number;
}

/**
 * 50,000 waiting events: five heights of 10,000 txs. A pending event holds only what the node
 * already built for it (its data and its composite keys), no message; messages are built as
 * their slice runs, so no height's messages (10,000 txs × 11 subscribers) are ever held at once.
 * 256 messages or 2 ms per slice: about 1.5 ms of sends at ~5 µs a message, short beside a height.
 */
export const DEFAULT_SLICE_LIMITS: SliceLimits = { maxPending: 50_000, messagesPerSlice: 256, sliceMs: 2 };

export interface SlicerClock {
  /** runs `task` on a later turn of the event loop */
  schedule(task: () => void): void;
  /** milliseconds, monotonic */
  now(): number;
}

const nodeClock: SlicerClock = {
  schedule: (task) => setImmediate(task),
  now: () => performance.now(),
};

export class DeliverySlicer<T> {
  private readonly items = new ArrayQueue<T>();
  private scheduled = false;
  private running = false;

  /**
   * `deliver` hands one item's messages to its subscribers and says how many it handed;
   * it must not throw (the hub catches what its encoder throws).
   */
  constructor(
    private readonly deliver: (item: T) => number,
    private readonly limits: SliceLimits = DEFAULT_SLICE_LIMITS,
    private readonly clock: SlicerClock = nodeClock,
  ) {}

  /** Items waiting to be delivered. */
  get pending(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    if (this.pending > this.limits.maxPending && !this.running) {
      // the bound: the publisher waits for the oldest, rather than the queue growing
      this.running = true;
      try {
        while (this.pending > this.limits.maxPending) this.deliverNext();
      } finally {
        this.running = false;
      }
    }
    this.scheduleSlice();
  }

  /**
   * Delivers everything waiting, now (tests; the server's stop). Called from inside a delivery
   * (a slice is running), it returns at once and the running slice goes on as scheduled.
   */
  flush(): void {
    if (this.running) return;
    this.running = true;
    try {
      while (this.pending > 0) this.deliverNext();
    } finally {
      this.running = false;
    }
  }

  /** Forgets everything waiting (the server stops). */
  clear(): void {
    this.items.clear();
  }

  private scheduleSlice(): void {
    if (this.scheduled || this.pending === 0) return;
    this.scheduled = true;
    this.clock.schedule(() => this.runSlice());
  }

  private runSlice(): void {
    this.scheduled = false;
    if (this.running) {
      this.scheduleSlice();
      return;
    }
    this.running = true;
    try {
      const start = this.clock.now();
      let messages = 0;
      while (
        this.pending > 0 &&
        messages < this.limits.messagesPerSlice &&
        this.clock.now() - start < this.limits.sliceMs
      ) {
        messages += this.deliverNext();
      }
    } finally {
      this.running = false;
      this.scheduleSlice();
    }
  }

  private deliverNext(): number {
    return this.deliver(this.items.shift() as T);
  }
}
