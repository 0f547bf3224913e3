// A subscription hub over a test's own event source, with Tendermint's default limits and a
// quiet logger, for the tests of subscription messages and of delivery in slices.
import type { RpcContext, RpcEvent } from "../../src/rpc/context.js";
import type { ResultEncoder } from "../../src/rpc/encoder.js";
import type { SliceLimits } from "../../src/rpc/subscriptions/delivery-slicer.js";
import { type SubscriberConnection, SubscriptionHub } from "../../src/rpc/subscriptions/hub.js";

export const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** The hub, and `publish` to hand it an event as the node's event stream would. */
export function hubOverSource(encoder: ResultEncoder, slices?: SliceLimits) {
  let listener: ((event: RpcEvent) => void) | undefined;
  const context: RpcContext = {
    subscribeEvents(l) {
      listener = l;
      return () => {
        listener = undefined;
      };
    },
  };
  const hub = new SubscriptionHub(
    context,
    encoder,
    { maxSubscriptionClients: 100, maxSubscriptionsPerClient: 5, closeOnSlowClient: false },
    quiet,
    undefined,
    slices,
  );
  return { hub, publish: (e: RpcEvent) => listener?.(e) };
}

/** A subscriber's connection that records what the hub writes to it, urgent writes only if asked. */
export class RecordingConnection implements SubscriberConnection {
  readonly sent: string[] = [];
  constructor(
    readonly remoteAddress: string,
    private readonly recordUrgent = false,
  ) {}
  deliver(text: string): boolean {
    this.sent.push(text);
    return true;
  }
  deliverUrgent(text: string): void {
    if (this.recordUrgent) this.sent.push(text);
  }
  close(): void {}
}
