// What both backends share: the options, the dispatcher, the HTTP front, the subscription hub
// and the factory of WebSocket sessions. Backends only move bytes.

import type { RpcContext } from "../context.js";
import type { ResultEncoder } from "../encoder.js";
import { buildRouteTable, Dispatcher } from "../jsonrpc/dispatch.js";
import type { RpcServerOptions } from "../options.js";
import type { RouteEnv } from "../route-spec.js";
import { ROUTES } from "../routes.js";
import { SubscriptionHub } from "../subscriptions/hub.js";
import { UNSAFE_ROUTES } from "../unsafe-routes.js";
import { type ExtraPages, HttpFront } from "./http-front.js";
import type { RpcObserver } from "./rpc-observer.js";
import { type SessionLimits, WebSocketSession, type WebSocketTransport } from "./websocket-session.js";

export interface RpcLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The socket buffer level above which a session's queue holds messages back. */
const HIGH_WATER_BYTES = 256 * 1024;
/** Requests a WebSocket may have waiting for their answers (Tendermint answers one at a time). */
const MAX_PENDING_REQUESTS = 100;

export class ServerCore {
  readonly dispatcher: Dispatcher;
  readonly front: HttpFront;
  readonly hub: SubscriptionHub;
  readonly sessions = new Set<WebSocketSession>();
  readonly sessionLimits: SessionLimits;
  private readonly baseEnv: Omit<RouteEnv, "webSocket" | "remoteAddress">;

  constructor(
    readonly options: Readonly<RpcServerOptions>,
    context: RpcContext,
    encoder: ResultEncoder,
    readonly logger: RpcLogger,
    nodeVersion = "",
    observer?: RpcObserver,
    pages?: ExtraPages,
  ) {
    const table = buildRouteTable(ROUTES, UNSAFE_ROUTES, options.unsafe);
    this.dispatcher = new Dispatcher(table, encoder, logger, observer);
    this.hub = new SubscriptionHub(context, encoder, options, logger, observer);
    const hub = this.hub;
    this.baseEnv = {
      context,
      options,
      subscriptionCounts: () => ({
        clients: hub.clientCount,
        subscriptionsOf: (address: string) => hub.subscriptionsOf(address),
      }),
    };
    this.front = new HttpFront(
      this.dispatcher,
      table,
      {
        allowedOrigins: options.corsAllowedOrigins,
        allowedMethods: options.corsAllowedMethods,
        allowedHeaders: options.corsAllowedHeaders,
      },
      // A literal, not a spread: this runs for every HTTP request.
      (remoteAddress) => ({
        context,
        options,
        subscriptionCounts: this.baseEnv.subscriptionCounts,
        remoteAddress,
      }),
      nodeVersion,
      pages,
    );
    this.sessionLimits = {
      maxMessages: options.subscriptionBufferSize,
      maxBytes: options.subscriptionBufferBytes,
      highWaterBytes: HIGH_WATER_BYTES,
      maxPendingRequests: MAX_PENDING_REQUESTS,
      maxPendingBytes: 4 * options.maxBodyBytes,
    };
  }

  openSession(remoteAddress: string, transport: WebSocketTransport): WebSocketSession {
    const session = new WebSocketSession(
      remoteAddress,
      transport,
      this.dispatcher,
      this.hub,
      this.baseEnv,
      this.sessionLimits,
      this.logger,
    );
    this.sessions.add(session);
    return session;
  }

  closeSession(session: WebSocketSession): void {
    session.onClose();
    this.sessions.delete(session);
  }

  /** Tells subscribers the server stops, then closes every WebSocket. */
  shutdown(): void {
    this.hub.close();
    for (const session of [...this.sessions]) session.close(1001, "server shutting down");
    this.sessions.clear();
  }
}
