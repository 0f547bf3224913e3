// Running calls against the route table in the three ways Tendermint does, with its error
// codes and HTTP statuses (reference §2.2, §2.3): a POST body (one request or a batch), a URI
// call (`GET /<route>?…`), and one WebSocket message. Synchronous handlers are answered
// without a promise, so the hot path (health, status) allocates little.

import type { ResultEncoder } from "../encoder.js";
import { JSONRPC_CODE, RpcError, toJsonRpcError } from "../errors.js";
import type { Route, RouteEnv } from "../route-spec.js";
import type { RpcObserver } from "../server/rpc-observer.js";
import { errorResponse, type JsonRpcId, joinResponses, successResponse, URI_ID } from "./envelope.js";
import { argsFromJsonParams } from "./params.js";
import { type JsonRpcRequest, parseRequestBody, parseWebSocketRequest } from "./request.js";
import { argsFromUri } from "./uri-params.js";

export interface RpcReply {
  status: number;
  /** JSON text, or empty when every request of a POST was a notification */
  body: string;
  /** send Cache-Control: public, max-age=86400 */
  cacheable: boolean;
}

export type RouteTable = ReadonlyMap<string, Route>;

/** A response's text, whether it is a success, and whether it may be cached. */
interface Answered {
  text: string;
  ok: boolean;
  cacheable?: boolean;
}

interface BatchState {
  responses: string[];
  cacheable: boolean;
}

function collect(batch: BatchState, answered: Answered): void {
  if (answered.cacheable !== true) batch.cacheable = false;
  batch.responses.push(answered.text);
}

function batchReply(batch: BatchState): RpcReply {
  if (batch.responses.length === 0) return { status: 200, body: "", cacheable: false };
  return { status: 200, body: joinResponses(batch.responses), cacheable: batch.cacheable };
}

/** Logs failures of our own code (an encoder throwing, a handler throwing a non-Error). */
export interface DispatchLogger {
  error(message: string, fields?: Record<string, unknown>): void;
}

const same = <T>(value: T): T => value;

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | null)?.then === "function";
}

export class Dispatcher {
  /** The last response text of each polled route called by URI, with the result JSON it holds. */
  private readonly polledTexts = new Map<Route, { json: string; text: string }>();

  constructor(
    private readonly routes: RouteTable,
    private readonly encoder: ResultEncoder,
    private readonly logger: DispatchLogger,
    private readonly observer?: RpcObserver,
  ) {}

  route(name: string): Route | undefined {
    return this.routes.get(name);
  }

  /** The result's JSON text, or a thrown/rejected error. */
  private encode(route: Route, value: unknown): string {
    try {
      return this.encoder.encodeResult(route.name, value);
    } catch (error) {
      this.logger.error("rpc result could not be encoded", { route: route.name, err: String(error) });
      throw new RpcError(
        "RPC_HANDLER_FAILED",
        `failed to encode the result of ${route.name}: ${(error as Error).message}`,
      );
    }
  }

  /**
   * Runs a call, turning any failure into an error response with the request's id, and hands the
   * answer to `done`. A handler's promise is followed by one callback that encodes, wraps, tells
   * the observer and calls `done` (a per-tx broadcast_tx_sync went through five promise hops here
   * and in the HTTP front, one per layer); a synchronous handler is answered without a promise.
   */
  private answer<T>(
    id: JsonRpcId | undefined,
    route: Route,
    args: Record<string, unknown>,
    env: RouteEnv,
    done: (answered: Answered) => T,
  ): T | Promise<T> {
    const started = this.observer === undefined ? 0 : performance.now();
    let result: unknown;
    try {
      result = route.handler(args as never, env);
    } catch (error) {
      return this.settle(route, started, this.failure(id, error), done);
    }
    if (!isPromise(result)) return this.settle(route, started, this.encoded(id, route, result), done);
    return result.then(
      (value) => this.settle(route, started, this.encoded(id, route, value), done),
      (error: unknown) => this.settle(route, started, this.failure(id, error), done),
    );
  }

  /** A handler's result as the success envelope, or as an error when it cannot be encoded. */
  private encoded(id: JsonRpcId | undefined, route: Route, value: unknown): Answered {
    try {
      return { text: this.success(route, id, this.encode(route, value)), ok: true };
    } catch (error) {
      return this.failure(id, error);
    }
  }

  private failure(id: JsonRpcId | undefined, error: unknown): Answered {
    return { text: errorResponse(id, toJsonRpcError(error)), ok: false };
  }

  /** The observer sees the call's time and outcome; the answer goes on to `done`. */
  private settle<T>(route: Route, started: number, answered: Answered, done: (a: Answered) => T): T {
    this.observer?.callAnswered(route.name, (performance.now() - started) / 1000, answered.ok);
    return done(answered);
  }

  /**
   * The success envelope; for a polled route called by URI the text is reused while the result
   * JSON is the same string (the encoder hands back the same string for the same result object),
   * so polling /status does not build a kilobyte of text per request.
   */
  private success(route: Route, id: JsonRpcId | undefined, json: string): string {
    if (route.polled !== true || id !== URI_ID) return successResponse(id, json);
    const last = this.polledTexts.get(route);
    if (last !== undefined && last.json === json) return last.text;
    const text = successResponse(id, json);
    this.polledTexts.set(route, { json, text });
    return text;
  }

  /** One request of a POST body: not found, bad params, or the route's answer. */
  private bodyRequest(request: JsonRpcRequest, id: JsonRpcId, env: RouteEnv): Answered | Promise<Answered> {
    const route = this.routes.get(request.method);
    if (route === undefined || route.webSocketOnly) {
      return {
        text: errorResponse(id, { code: JSONRPC_CODE.methodNotFound, message: "Method not found" }),
        ok: false,
      };
    }
    let args: Record<string, unknown>;
    try {
      args = argsFromJsonParams(route.params, request.params);
    } catch (error) {
      return { text: errorResponse(id, toJsonRpcError(error)), ok: false };
    }
    const cacheable = route.cacheable?.(args as never) ?? false;
    return this.answer(id, route, args, env, (a): Answered => ({ ...a, cacheable: a.ok && cacheable }));
  }

  /**
   * POST / (any content type): one request or a batch; notifications are not answered.
   * Answered without a promise while every route answers synchronously (the common case).
   */
  handleBody(text: string, env: RouteEnv): RpcReply | Promise<RpcReply> {
    let requests: JsonRpcRequest[];
    try {
      requests = parseRequestBody(text);
    } catch (error) {
      return { status: 500, body: errorResponse(undefined, toJsonRpcError(error)), cacheable: false };
    }
    const batch: BatchState = { responses: [], cacheable: true };
    // One at a time and in order, as Tendermint does: a batch of broadcasts keeps its order.
    for (let i = 0; i < requests.length; i++) {
      const outcome = this.bodyStep(requests[i] as JsonRpcRequest, env);
      if (outcome === undefined) continue;
      if (isPromise(outcome)) return this.finishBatch(requests, i, outcome, batch, env);
      collect(batch, outcome);
    }
    return batchReply(batch);
  }

  /** The rest of a batch once one of its routes answered with a promise. */
  private async finishBatch(
    requests: JsonRpcRequest[],
    index: number,
    pending: Promise<Answered>,
    batch: BatchState,
    env: RouteEnv,
  ): Promise<RpcReply> {
    collect(batch, await pending);
    for (let i = index + 1; i < requests.length; i++) {
      const outcome = this.bodyStep(requests[i] as JsonRpcRequest, env);
      if (outcome !== undefined) collect(batch, isPromise(outcome) ? await outcome : outcome);
    }
    return batchReply(batch);
  }

  /** One request of a body: undefined for a notification; never throws or rejects. */
  private bodyStep(request: JsonRpcRequest, env: RouteEnv): Answered | Promise<Answered> | undefined {
    const id = request.id;
    if (id === undefined) return undefined;
    const fault = (error: unknown): Answered => {
      // Only a fault of our own gets here; the request still gets an answer.
      this.logger.error("rpc request failed unexpectedly", { method: request.method, err: String(error) });
      return { text: errorResponse(id, toJsonRpcError(error)), ok: false };
    };
    try {
      const outcome = this.bodyRequest(request, id, env);
      return isPromise(outcome) ? outcome.catch(fault) : outcome;
    } catch (error) {
      return fault(error);
    }
  }

  /**
   * GET|POST /<route>?args: answered with id -1; WebSocket-only routes 404, conversion and
   * handler errors 500. The caller has already answered unknown paths with a plain 404.
   */
  handleUri(
    route: Route,
    lookup: (name: string) => string | undefined,
    env: RouteEnv,
  ): RpcReply | Promise<RpcReply> {
    if (route.webSocketOnly) {
      return {
        status: 404,
        body: errorResponse(URI_ID, { code: JSONRPC_CODE.methodNotFound, message: "Method not found" }),
        cacheable: false,
      };
    }
    let args: Record<string, unknown>;
    try {
      args = argsFromUri(route.params, lookup);
    } catch (error) {
      return { status: 500, body: errorResponse(URI_ID, toJsonRpcError(error)), cacheable: false };
    }
    return this.handleUriArgs(route, args, env);
  }

  /**
   * A URI call whose arguments were already read (plainBytesArg's short path): answered as
   * handleUri answers it from there on.
   */
  handleUriArgs(route: Route, args: Record<string, unknown>, env: RouteEnv): RpcReply | Promise<RpcReply> {
    return this.handleUriArgsThen(route, args, env, same);
  }

  /** handleUriArgs with the reply handed to `done` in the same callback (no promise hop of its own). */
  handleUriArgsThen<T>(
    route: Route,
    args: Record<string, unknown>,
    env: RouteEnv,
    done: (reply: RpcReply) => T,
  ): T | Promise<T> {
    if (route.webSocketOnly) {
      return done({
        status: 404,
        body: errorResponse(URI_ID, { code: JSONRPC_CODE.methodNotFound, message: "Method not found" }),
        cacheable: false,
      });
    }
    return this.answer(URI_ID, route, args, env, ({ text, ok }) =>
      done({
        status: ok ? 200 : 500,
        body: text,
        cacheable: ok && (route.cacheable?.(args as never) ?? false),
      }),
    );
  }

  /**
   * One WebSocket message: the response text, or undefined for a notification. Parameter
   * conversion errors are -32603 here, as Tendermint answers them over WebSocket.
   */
  async handleWebSocketMessage(text: string, env: (id: JsonRpcId) => RouteEnv): Promise<string | undefined> {
    let request: JsonRpcRequest;
    try {
      request = parseWebSocketRequest(text);
    } catch (error) {
      return errorResponse(undefined, toJsonRpcError(error));
    }
    if (request.id === undefined) return undefined;
    const route = this.routes.get(request.method);
    if (route === undefined) {
      return errorResponse(request.id, { code: JSONRPC_CODE.methodNotFound, message: "Method not found" });
    }
    let args: Record<string, unknown>;
    try {
      args = argsFromJsonParams(route.params, request.params);
    } catch (error) {
      const { data } = toJsonRpcError(error);
      return errorResponse(request.id, { code: JSONRPC_CODE.internalError, message: "Internal error", data });
    }
    const answered = this.answer(request.id, route, args, env(request.id), same);
    return (isPromise(answered) ? await answered : answered).text;
  }
}

/** The route table of a server: the safe routes, and the unsafe ones when enabled. */
export function buildRouteTable(
  routes: readonly Route[],
  unsafeRoutes: readonly Route[],
  unsafe: boolean,
): RouteTable {
  const table = new Map<string, Route>();
  for (const r of unsafe ? [...routes, ...unsafeRoutes] : routes) {
    if (table.has(r.name)) throw new Error(`route ${r.name} is declared twice`);
    table.set(r.name, r);
  }
  return table;
}
