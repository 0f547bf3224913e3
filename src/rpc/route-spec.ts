// The shape of a route: its name, its parameters in Tendermint's order with their Go-derived
// types (reference §1.1 "Argument Go types"), and a handler that receives the arguments already
// converted. One table of these (routes.ts, unsafe-routes.ts) drives both call styles, the
// WebSocket, the index page and the cache headers.

import type { RpcContext } from "./context.js";
import type { RpcServerOptions } from "./options.js";

/**
 * - int64: bigint (heights); int: number (page, per_page, limit); uint: number ≥ 0 (chunk)
 * - bytes: Uint8Array, base64 in JSON-RPC, `0x…` hex or "quoted text" in URI (tx)
 * - hash: like bytes, and also 64 hex digits (with or without 0x) in either style
 * - hexBytes: Uint8Array, hex in JSON-RPC (abci_query data)
 * - bool, string, stringArray; json: any JSON value, passed on as parsed (evidence)
 */
export type ParamType =
  | "int64"
  | "int"
  | "uint"
  | "bytes"
  | "hash"
  | "hexBytes"
  | "bool"
  | "string"
  | "stringArray"
  | "json";

export interface ParamSpec {
  readonly name: string;
  readonly type: ParamType;
  /** Go pointer semantics: absent or empty is `undefined` rather than the zero value. */
  readonly optional?: boolean;
}

export interface ParamValueOf {
  int64: bigint;
  int: number;
  uint: number;
  bytes: Uint8Array;
  hash: Uint8Array;
  hexBytes: Uint8Array;
  bool: boolean;
  string: string;
  stringArray: string[];
  json: unknown;
}

/** The arguments object a handler receives for a parameter list. */
export type ArgsOf<P extends readonly ParamSpec[]> = {
  [S in P[number] as S["name"]]: S["optional"] extends true
    ? ParamValueOf[S["type"]] | undefined
    : ParamValueOf[S["type"]];
};

/** What a WebSocket-only route sees of the connection it was called on. */
export interface WebSocketCallSite {
  readonly remoteAddress: string;
  /** The id of the request, which events of a subscription are sent with. */
  readonly requestId: string | number;
  subscribe(queryText: string): void;
  unsubscribe(queryText: string): void;
  unsubscribeAll(): void;
}

export interface RouteEnv {
  readonly context: RpcContext;
  readonly options: Readonly<RpcServerOptions>;
  /** Subscription counts for broadcast_tx_commit's limit check. */
  readonly subscriptionCounts: () => { clients: number; subscriptionsOf(remoteAddress: string): number };
  /** Set only when the call came over WebSocket. */
  readonly webSocket?: WebSocketCallSite;
  /** Address of the caller, for logs and subscription keys. */
  readonly remoteAddress: string;
}

export interface Route<P extends readonly ParamSpec[] = readonly ParamSpec[]> {
  readonly name: string;
  readonly params: P;
  /** WebSocket only (subscribe, unsubscribe, unsubscribe_all): "Method not found" elsewhere. */
  readonly webSocketOnly?: boolean;
  /**
   * Polled hard (health, status): no parameters, answered synchronously from a projection that
   * hands back the same result object while it holds, nothing in it depends on the caller. A
   * GET of such a route takes the server's short path: no request headers or remote address
   * read, and the response text reused while the result object is the same.
   */
  readonly polled?: boolean;
  /**
   * Called once per transaction under load (broadcast_tx_async, broadcast_tx_sync): one bytes
   * parameter, and the handler reads nothing of the caller (no remote address, no WebSocket). A
   * GET whose query is that one argument in a plain shape (plainBytesArg) takes the server's
   * short path: no request headers or remote address read, no per-request call object.
   */
  readonly perTx?: boolean;
  /** Whether a successful answer may be cached for a day (reference §1.1 "cacheable"). */
  readonly cacheable?: (args: ArgsOf<P>) => boolean;
  /** Returns the result in domain form; the encoder turns it into JSON. Throws to fail. */
  readonly handler: (args: ArgsOf<P>, env: RouteEnv) => unknown | Promise<unknown>;
  /** One line for the index page. */
  readonly description: string;
}

/** Declares a route with its argument types inferred from its parameter list. */
export function route<const P extends readonly ParamSpec[]>(definition: Route<P>): Route {
  return definition as unknown as Route;
}
