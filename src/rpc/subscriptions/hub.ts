// WebSocket subscriptions (reference §1.5): each connection subscribes to queries; every event
// the node publishes is matched against the subscriptions that could match it (indexed by an
// equality condition of their query, subscription-index.ts, so the cost does not grow with the
// number of subscribers) and pushed as a JSON-RPC success response carrying the subscribe
// request's id, `{query, data, events}`, on a later turn than the node's publish, in slices
// (delivery-slicer.ts), each subscription getting the events published after it was made, in
// order. The event's data and events are encoded once per
// event, whatever the number of subscribers; each message is that text behind the
// subscription's own prefix. Limits and error
// messages are Tendermint's; a client too slow to take its messages has the subscription
// cancelled with an explicit -32000 message, and is closed when closeOnSlowClient is set.

import {
  type CompiledQuery,
  compileQuery,
  MAX_QUERY_LENGTH,
  parseQuery,
  type QueryError,
} from "../../query/index.js";
import type { RpcContext, RpcEvent, Unsubscribe } from "../context.js";
import type { ResultEncoder } from "../encoder.js";
import { handlerError, RpcError } from "../errors.js";
import { errorResponse, goJsonString, type JsonRpcId } from "../jsonrpc/envelope.js";
import type { RpcObserver } from "../server/rpc-observer.js";
import {
  DEFAULT_SLICE_LIMITS,
  DeliverySlicer,
  type SliceLimits,
  type SlicerClock,
} from "./delivery-slicer.js";
import { SubscriptionIndex } from "./subscription-index.js";

/** A connection as the hub sees it. */
export interface SubscriberConnection {
  readonly remoteAddress: string;
  /** queue a message; false when the connection's queue is full */
  deliver(text: string): boolean;
  /** send past the queue's bounds (cancellation notices) */
  deliverUrgent(text: string): void;
  close(code: number, reason: string): void;
}

export interface HubLimits {
  maxSubscriptionClients: number;
  maxSubscriptionsPerClient: number;
  closeOnSlowClient: boolean;
}

export interface HubLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

interface Subscription {
  readonly connection: SubscriberConnection;
  readonly queryText: string;
  readonly id: JsonRpcId;
  readonly compiled: CompiledQuery;
  /** `{"jsonrpc":"2.0","id":…,"result":{"query":…,"data":` */
  readonly prefix: string;
  /** the number of events published before this subscription was made: it gets the later ones */
  readonly since: number;
}

/** An event waiting for its slice, numbered in publishing order. */
interface PendingEvent {
  readonly event: RpcEvent;
  readonly seq: number;
}

/**
 * The JSON writer builds text by appending, which V8 keeps as a tree of pieces (a rope); every
 * message built on such a body walks the whole tree again when the socket copies it out. V8
 * flattens a string in place when it converts it to a number, so doing that once per event
 * leaves one flat body for all its messages (11 messages of a 706-character Tx body cost 7 µs
 * instead of 22). The number is kept where the compiler must compute it; it is never read.
 */
// biome-ignore lint/correctness/noUnusedVariables: written so that the conversion is not optimised away
let flattened = 0;
function flatten(text: string): string {
  flattened = Number(text);
  return text;
}

export const SLOW_CLIENT_REASON = "client is not pulling messages fast enough";
const SERVER_ERROR = { code: -32000, message: "Server error" };

export class SubscriptionHub {
  private readonly byConnection = new Map<SubscriberConnection, Map<string, Subscription>>();
  private readonly countByAddress = new Map<string, number>();
  private readonly index = new SubscriptionIndex<Subscription>();
  private detach: Unsubscribe | undefined;
  private closed = false;
  /** events published so far (while anyone was subscribed) */
  private published = 0;
  private readonly slicer: DeliverySlicer<PendingEvent>;

  constructor(
    private readonly context: RpcContext,
    private readonly encoder: ResultEncoder,
    private readonly limits: HubLimits,
    private readonly logger: HubLogger,
    private readonly observer?: RpcObserver,
    slices: SliceLimits = DEFAULT_SLICE_LIMITS,
    clock?: SlicerClock,
  ) {
    this.slicer = new DeliverySlicer((pending) => this.deliverGuarded(pending), slices, clock);
  }

  /** Events published and not yet delivered. */
  get pendingEvents(): number {
    return this.slicer.pending;
  }

  /** Delivers every event still waiting for its slice, now. */
  flush(): void {
    this.slicer.flush();
  }

  /** Connections with at least one subscription. */
  get clientCount(): number {
    return this.byConnection.size;
  }

  subscriptionsOf(remoteAddress: string): number {
    return this.countByAddress.get(remoteAddress) ?? 0;
  }

  subscribe(connection: SubscriberConnection, queryText: string, id: JsonRpcId): void {
    const mine = this.byConnection.get(connection);
    if (mine === undefined && this.byConnection.size >= this.limits.maxSubscriptionClients) {
      throw handlerError(`max_subscription_clients ${this.limits.maxSubscriptionClients} reached`);
    }
    if ((mine?.size ?? 0) >= this.limits.maxSubscriptionsPerClient) {
      throw handlerError(`max_subscriptions_per_client ${this.limits.maxSubscriptionsPerClient} reached`);
    }
    if (Buffer.byteLength(queryText) > MAX_QUERY_LENGTH) throw handlerError("maximum query length exceeded");
    let compiled: CompiledQuery;
    try {
      compiled = compileQuery(parseQuery(queryText));
    } catch (error) {
      throw handlerError(`failed to parse query: ${(error as QueryError).message}`);
    }
    if (mine?.has(queryText)) throw handlerError("already subscribed");
    if (this.context.subscribeEvents === undefined) {
      throw new RpcError(
        "RPC_NOT_AVAILABLE",
        "subscribe is not available on this node (it does not provide subscribeEvents)",
      );
    }
    const idJson = typeof id === "number" ? String(id) : goJsonString(id);
    const subscription: Subscription = {
      connection,
      queryText,
      id,
      compiled,
      prefix: `{"jsonrpc":"2.0","id":${idJson},"result":{"query":${goJsonString(queryText)},"data":`,
      since: this.published,
    };
    const map = mine ?? new Map<string, Subscription>();
    map.set(queryText, subscription);
    if (mine === undefined) this.byConnection.set(connection, map);
    this.index.add(subscription);
    this.countByAddress.set(connection.remoteAddress, this.subscriptionsOf(connection.remoteAddress) + 1);
    this.logger.info("subscribed", { remote: connection.remoteAddress, query: queryText });
    this.attach();
  }

  unsubscribe(connection: SubscriberConnection, queryText: string): void {
    const mine = this.byConnection.get(connection);
    if (mine === undefined || !mine.has(queryText)) throw handlerError("subscription not found");
    this.remove(connection, queryText);
  }

  unsubscribeAll(connection: SubscriberConnection): void {
    const mine = this.byConnection.get(connection);
    if (mine === undefined || mine.size === 0) throw handlerError("subscription not found");
    for (const queryText of [...mine.keys()]) this.remove(connection, queryText);
  }

  /** The connection went away: drop its subscriptions without a word. */
  disconnect(connection: SubscriberConnection): void {
    const mine = this.byConnection.get(connection);
    if (mine === undefined) return;
    for (const queryText of [...mine.keys()]) this.remove(connection, queryText);
  }

  /**
   * The server stops: what was published before the stop still goes out (the last height's
   * events), then every subscriber is told, as Tendermint does when it exits.
   */
  close(): void {
    this.closed = true;
    this.slicer.flush();
    this.slicer.clear();
    for (const [connection, mine] of [...this.byConnection]) {
      for (const subscription of [...mine.values()]) {
        this.cancel(subscription, "Tendermint exited");
      }
      this.disconnect(connection);
    }
    this.detachEvents();
  }

  private remove(connection: SubscriberConnection, queryText: string): void {
    const mine = this.byConnection.get(connection);
    const subscription = mine?.get(queryText);
    if (mine === undefined || subscription === undefined) return;
    mine.delete(queryText);
    this.index.delete(subscription);
    if (mine.size === 0) this.byConnection.delete(connection);
    const left = this.subscriptionsOf(connection.remoteAddress) - 1;
    if (left <= 0) this.countByAddress.delete(connection.remoteAddress);
    else this.countByAddress.set(connection.remoteAddress, left);
    if (this.byConnection.size === 0) this.detachEvents();
  }

  private cancel(subscription: Subscription, reason: string): void {
    subscription.connection.deliverUrgent(
      errorResponse(subscription.id, {
        ...SERVER_ERROR,
        data: `subscription was cancelled (reason: ${reason})`,
      }),
    );
  }

  private attach(): void {
    if (this.detach !== undefined || this.closed || this.context.subscribeEvents === undefined) return;
    this.detach = this.context.subscribeEvents((event) => this.publish(event));
  }

  private detachEvents(): void {
    const detach = this.detach;
    this.detach = undefined;
    detach?.();
  }

  /**
   * Queues one event for the subscriptions it matches, delivered on a later turn (delivery-
   * slicer.ts): the node's fold that published it does not wait for the writes. Never throws
   * back into the node.
   */
  publish(event: RpcEvent): void {
    if (this.index.size === 0) return;
    this.slicer.push({ event, seq: this.published++ });
  }

  /**
   * Delivery runs on its own turn (setImmediate), where nothing else would catch a throw and the
   * process would die of it; a fault in one event's delivery (a transport, an observer) costs
   * that event's remaining subscribers, logged, and the next events still go out.
   */
  private deliverGuarded(pending: PendingEvent): number {
    try {
      return this.deliver(pending);
    } catch (error) {
      this.logger.warn("event delivery failed; its remaining subscribers missed it", {
        type: pending.event.type,
        err: String(error),
      });
      return 0;
    }
  }

  /** Delivers one event to every matching subscription made before it; the messages handed. */
  private deliver({ event, seq }: PendingEvent): number {
    if (this.index.size === 0) return 0;
    let handed = 0;
    let tail: string | undefined;
    let unencodable = false;
    // Subscriptions with the same prefix (the same subscribe id and query, as clients that all
    // send id 1 have) get the same message: one string, flattened by its first send and reused
    // by the rest, instead of a copy per subscriber for the garbage collector to sweep. Equal
    // queries sit side by side in the index's buckets, so the last prefix is all we remember.
    let lastPrefix: string | undefined;
    let message = "";
    const slow: Subscription[] = [];
    this.index.forEachCandidate(event.events, (subscription) => {
      if (unencodable || subscription.since > seq || !this.matches(subscription, event)) return;
      if (tail === undefined) {
        try {
          tail = flatten(`${this.encoder.encodeEventData(event)},"events":${JSON.stringify(event.events)}}}`);
        } catch (error) {
          unencodable = true;
          this.logger.warn("event could not be encoded; not delivered", {
            type: event.type,
            err: String(error),
          });
          return;
        }
      }
      if (subscription.prefix !== lastPrefix) {
        lastPrefix = subscription.prefix;
        message = subscription.prefix + tail;
      }
      handed++;
      if (!subscription.connection.deliver(message)) slow.push(subscription);
    });
    for (const subscription of slow) this.dropSlow(subscription);
    return handed;
  }

  private matches(subscription: Subscription, event: RpcEvent): boolean {
    try {
      return subscription.compiled.matches(event.events);
    } catch (error) {
      // Tendermint stops delivering to everyone on such an error; only this query misses it here.
      this.logger.debug("event value not comparable with query", {
        query: subscription.queryText,
        err: String(error),
      });
      return false;
    }
  }

  private dropSlow(subscription: Subscription): void {
    const { connection } = subscription;
    this.observer?.subscriptionDropped();
    this.logger.info("subscription cancelled: slow client", {
      remote: connection.remoteAddress,
      query: subscription.queryText,
    });
    if (this.limits.closeOnSlowClient) {
      this.cancel(subscription, "slow client");
      this.disconnect(connection);
      connection.close(1008, "slow client");
      return;
    }
    this.cancel(subscription, SLOW_CLIENT_REASON);
    this.remove(connection, subscription.queryText);
  }
}
