// The transport-neutral HTTP side of the server: which path goes where (reference §1.3), the
// headers every answer carries (Content-Type, X-Server-Time, Cache-Control, CORS), and the
// fixed answers (index page, 404, body too large). Both backends (uWS, node:http) read the
// request, call `answer`, and write what it returns.

import { JSONRPC_CODE } from "../errors.js";
import type { Dispatcher, RouteTable, RpcReply } from "../jsonrpc/dispatch.js";
import { errorResponse } from "../jsonrpc/envelope.js";
import { plainBytesArg } from "../jsonrpc/uri-params.js";
import type { Route, RouteEnv } from "../route-spec.js";
import { CorsPolicy, type CorsSettings, type Header } from "./cors.js";
import { renderIndexPage } from "./index-page.js";

export interface HttpCall {
  /** upper case */
  method: string;
  path: string;
  /** the raw query string, without "?" */
  query: string;
  contentType: string;
  origin: string;
  /** Access-Control-Request-Method and -Headers, for preflights */
  corsRequestMethod: string;
  corsRequestHeaders: string;
  remoteAddress: string;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  /** Shared between answers: read, never edit. */
  headers: readonly Header[];
  body: string;
  /** the body already encoded as UTF-8, when it is reused (polled routes): written as it is */
  bodyBytes?: Buffer;
}

export const WEBSOCKET_PATH = "/websocket";

/** Fixed HTML pages served on GET by path (the node's dashboard), beside the routes. */
export type ExtraPages = ReadonlyMap<string, string>;
const JSON_TYPE = "application/json";
const CACHE_CONTROL: Header = ["Cache-Control", "public, max-age=86400"];
const NOT_FOUND_BODY = "404 page not found\n";

const STATUS_TEXT: Record<number, string> = {
  200: "200 OK",
  204: "204 No Content",
  400: "400 Bad Request",
  404: "404 Not Found",
  405: "405 Method Not Allowed",
  413: "413 Payload Too Large",
  431: "431 Request Header Fields Too Large",
  500: "500 Internal Server Error",
  503: "503 Service Unavailable",
};

export function statusLine(status: number): string {
  return STATUS_TEXT[status] ?? `${status} Status`;
}

/** Unix seconds as text, recomputed at most once a second. */
let serverTimeSecond = -1;
let serverTimeText = "";
/** The headers of an answer with no other header: shared (never edited) while the second lasts. */
let serverTimeOnly: readonly Header[] = [];
function serverTime(): string {
  const now = Math.floor(Date.now() / 1000);
  if (now !== serverTimeSecond) {
    serverTimeSecond = now;
    serverTimeText = String(now);
    serverTimeOnly = [["X-Server-Time", serverTimeText]];
  }
  return serverTimeText;
}

/** The call a polled route's short path stands for: a plain GET (its fields are never read). */
export const PLAIN_GET: HttpCall = {
  method: "GET",
  path: "",
  query: "",
  contentType: "",
  origin: "",
  corsRequestMethod: "",
  corsRequestHeaders: "",
  remoteAddress: "",
};

export class HttpFront {
  private readonly cors: CorsPolicy | undefined;
  private readonly indexPage: string;
  private readonly polledEnv: RouteEnv;
  private readonly polledBytes = new Map<Route, { text: string; bytes: Buffer }>();
  /** Routes a backend may answer by the short path (none while CORS needs the request's headers). */
  readonly polledRoutes: readonly Route[];
  /** Per-tx routes a backend may answer by answerPerTx (none while CORS is on). */
  readonly perTxRoutes: readonly Route[];

  constructor(
    private readonly dispatcher: Dispatcher,
    routes: RouteTable,
    cors: CorsSettings,
    private readonly envFor: (remoteAddress: string) => RouteEnv,
    nodeVersion = "",
    private readonly pages: ExtraPages = new Map(),
  ) {
    this.cors = cors.allowedOrigins.length > 0 ? new CorsPolicy(cors) : undefined;
    this.indexPage = renderIndexPage(routes.values(), nodeVersion);
    // Polled and per-tx routes read nothing of the caller (route-spec.ts): one env serves them all.
    this.polledEnv = envFor("");
    this.polledRoutes =
      this.cors === undefined
        ? [...routes.values()].filter((r) => r.polled === true && r.params.length === 0)
        : [];
    this.perTxRoutes =
      this.cors === undefined
        ? [...routes.values()].filter(
            (r) => r.perTx === true && r.params.length === 1 && r.params[0]!.type === "bytes",
          )
        : [];
  }

  /**
   * A plain GET of a per-tx route whose query is its one argument in a plain shape: the answer
   * `answer` gives, without the request's headers or remote address (the route reads neither);
   * undefined for any other query, which the backend then sends down the general path.
   */
  answerPerTx(route: Route, query: string): HttpAnswer | Promise<HttpAnswer> | undefined {
    const name = route.params[0]!.name;
    const plain = plainBytesArg(query, name);
    if (plain === undefined) return undefined;
    return this.dispatcher.handleUriArgsThen(route, { [name]: plain }, this.polledEnv, this.perTxReply);
  }

  private readonly perTxReply = (reply: RpcReply): HttpAnswer => this.reply(PLAIN_GET, reply);

  /**
   * A plain GET of a polled route (no body, CORS off): the same answer `answer` gives, without
   * the request's headers, query or remote address (a polled route reads none of them).
   */
  answerPolled(route: Route): HttpAnswer | Promise<HttpAnswer> {
    const reply = this.dispatcher.handleUri(route, NOTHING, this.polledEnv);
    return reply instanceof Promise ? reply.then((r) => this.polled(route, r)) : this.polled(route, reply);
  }

  /** The answer with its body's bytes, encoded once per new body text of the route. */
  private polled(route: Route, reply: RpcReply): HttpAnswer {
    const answer = this.reply(PLAIN_GET, reply);
    const last = this.polledBytes.get(route);
    if (last !== undefined && last.text === answer.body) {
      answer.bodyBytes = last.bytes;
    } else if (reply.status === 200) {
      answer.bodyBytes = Buffer.from(answer.body, "utf8");
      this.polledBytes.set(route, { text: answer.body, bytes: answer.bodyBytes });
    }
    return answer;
  }

  /** Whether CORS headers of requests matter (backends skip reading them otherwise). */
  get corsEnabled(): boolean {
    return this.cors !== undefined;
  }

  /** Whether the request's body must be read before answering (JSON-RPC, or a form for a route). */
  wantsBody(call: HttpCall): boolean {
    if (call.path === "/") return true;
    return this.dispatcher.route(call.path.slice(1)) !== undefined && call.path.indexOf("/", 1) < 0;
  }

  private finish(
    call: HttpCall,
    status: number,
    contentType: string,
    body: string,
    extra?: Header,
  ): HttpAnswer {
    const time = serverTime();
    // The usual answer (a per-tx one among them) shares the time's header list: two arrays
    // fewer per answer.
    if (extra === undefined && this.cors === undefined)
      return { status, contentType, headers: serverTimeOnly, body };
    const headers: Header[] = [["X-Server-Time", time]];
    if (extra !== undefined) headers.push(extra);
    if (this.cors !== undefined) headers.push(...this.cors.actual(this.corsRequest(call)));
    return { status, contentType, headers, body };
  }

  private corsRequest(call: HttpCall) {
    return {
      method: call.method,
      origin: call.origin,
      requestMethod: call.corsRequestMethod,
      requestHeaders: call.corsRequestHeaders,
    };
  }

  private reply(call: HttpCall, reply: RpcReply): HttpAnswer {
    return this.finish(
      call,
      reply.status,
      JSON_TYPE,
      reply.body,
      reply.cacheable ? CACHE_CONTROL : undefined,
    );
  }

  notFound(call: HttpCall): HttpAnswer {
    return this.finish(call, 404, "text/plain; charset=utf-8", NOT_FOUND_BODY, [
      "X-Content-Type-Options",
      "nosniff",
    ]);
  }

  /** A body over max_body_bytes (reference §2.2): 400, -32600, no id. */
  bodyTooLarge(call: HttpCall): HttpAnswer {
    const body = errorResponse(undefined, {
      code: JSONRPC_CODE.invalidRequest,
      message: "Invalid Request",
      data: "error reading request body: http: request body too large",
    });
    return this.finish(call, 400, JSON_TYPE, body);
  }

  /** A plain HTTP request to /websocket, as Go's upgrader answers it. */
  notAWebSocket(call: HttpCall): HttpAnswer {
    return this.finish(
      call,
      400,
      "text/plain; charset=utf-8",
      "Bad Request\nwebsocket: the client is not using the websocket protocol: 'upgrade' token not found in 'Connection' header\n",
    );
  }

  /** Request line and headers over max_header_bytes, as Go answers it. */
  headersTooLarge(call: HttpCall): HttpAnswer {
    return this.finish(call, 431, "text/plain; charset=utf-8", "431 Request Header Fields Too Large");
  }

  /** Too many open connections (uWS has no accept hook, so it refuses requests instead). */
  overloaded(call: HttpCall): HttpAnswer {
    return this.finish(call, 503, "text/plain; charset=utf-8", "too many open connections\n");
  }

  answer(call: HttpCall, body: string): HttpAnswer | Promise<HttpAnswer> {
    const cors = this.cors;
    if (cors?.isPreflight(this.corsRequest(call))) {
      return { status: 204, contentType: "", headers: cors.preflight(this.corsRequest(call)), body: "" };
    }
    if (call.path === "/") {
      if (body.length === 0) return this.finish(call, 200, "text/html; charset=utf-8", this.indexPage);
      const replied = this.dispatcher.handleBody(body, this.envFor(call.remoteAddress));
      return replied instanceof Promise
        ? replied.then((r) => this.reply(call, r))
        : this.reply(call, replied);
    }
    if (call.path === WEBSOCKET_PATH) return this.notAWebSocket(call);
    const page = this.pages.get(call.path);
    if (page !== undefined && (call.method === "GET" || call.method === "HEAD")) {
      return this.finish(call, 200, "text/html; charset=utf-8", page, ["X-Content-Type-Options", "nosniff"]);
    }
    const route = call.path.indexOf("/", 1) < 0 ? this.dispatcher.route(call.path.slice(1)) : undefined;
    if (route === undefined) return this.notFound(call);
    // A non-empty query value wins over a form body (queryLookup), so the short path may skip it.
    const only = route.params.length === 1 ? route.params[0]! : undefined;
    const plain = only?.type === "bytes" ? plainBytesArg(call.query, only.name) : undefined;
    const reply =
      plain !== undefined
        ? this.dispatcher.handleUriArgs(route, { [only!.name]: plain }, this.envFor(call.remoteAddress))
        : this.dispatcher.handleUri(
            route,
            queryLookup(call, body, route.params.length > 0),
            this.envFor(call.remoteAddress),
          );
    return reply instanceof Promise ? reply.then((r) => this.reply(call, r)) : this.reply(call, reply);
  }
}

const NOTHING = (): undefined => undefined;

/** Query-string values, falling back to a urlencoded form body (Go's FormValue). */
function queryLookup(call: HttpCall, body: string, needed: boolean): (name: string) => string | undefined {
  if (!needed) return NOTHING;
  const query = new URLSearchParams(call.query);
  const form =
    body.length > 0 && call.contentType.toLowerCase().startsWith("application/x-www-form-urlencoded")
      ? new URLSearchParams(body)
      : undefined;
  return (name) => {
    const value = query.get(name);
    if (value !== null && value !== "") return value;
    return form?.get(name) ?? undefined;
  };
}
