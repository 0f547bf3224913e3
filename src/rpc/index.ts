// The RPC module: Tendermint v0.34's JSON-RPC over HTTP(S) and WebSocket, on uWebSockets.js
// with a node:http fallback. It owns the route table, both call styles, the error model, the
// event query language and WebSocket subscriptions; the node supplies data through RpcContext
// and JSON forms through a ResultEncoder.

export type {
  ChainHeights,
  DialPeersRequest,
  RpcContext,
  RpcEvent,
  SearchRequest,
  Unsubscribe,
} from "./context.js";
export { eventDataType, passThroughEncoder, RawJson, type ResultEncoder } from "./encoder.js";
export { JSONRPC_CODE, JSONRPC_MESSAGE, RpcError, type RpcErrorCode, toJsonRpcError } from "./errors.js";
export {
  DEFAULT_RPC_OPTIONS,
  type ListenAddress,
  parseListenAddress,
  type RpcCompat,
  type RpcServerOptions,
  resolveRpcOptions,
} from "./options.js";
export { filterMinMax, pageOffset, resolveHeight, validatePage, validatePerPage } from "./paging.js";
export type { ParamSpec, ParamType, Route, RouteEnv } from "./route-spec.js";
export { ROUTES } from "./routes.js";
export type { RpcLogger } from "./server/server-core.js";
export { type RpcServerDeps, type RpcServerHandle, startRpcServer } from "./server/start.js";
export { UNSAFE_ROUTES } from "./unsafe-routes.js";
