// Errors of the RPC module, and the one place where any error becomes a JSON-RPC error object
// (reference §2.1). Every RpcError carries the JSON-RPC code it is answered with; errors of
// other modules thrown by a route become "Internal error" with their message as `data`, as
// Tendermint writes a handler's error.
import { CodedError, withoutStack } from "../coded-error.js";

export type RpcErrorCode =
  /** the body is not JSON, or not a request object or array of them (-32700) */
  | "RPC_PARSE_ERROR"
  /** the body could not be read (too large) (-32600) */
  | "RPC_INVALID_REQUEST"
  /** no such route, or a WebSocket-only route over HTTP (-32601) */
  | "RPC_METHOD_NOT_FOUND"
  /** params did not convert to the route's arguments (-32602; -32603 over WebSocket) */
  | "RPC_INVALID_PARAMS"
  /** the route failed (-32603): bad height, page, query, a failed call into the node */
  | "RPC_HANDLER_FAILED"
  /** the node does not provide what the route needs (-32603) */
  | "RPC_NOT_AVAILABLE"
  /** a subscription was cancelled for a reason other than unsubscribe (-32000) */
  | "RPC_SUBSCRIPTION_CANCELLED"
  /** server options are invalid (bad laddr, TLS files, negative limits) */
  | "RPC_BAD_OPTIONS"
  /** the server could not listen on its address */
  | "RPC_LISTEN_FAILED";

/** JSON-RPC error codes of reference §2.1. */
export const JSONRPC_CODE = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
} as const;

/** Tendermint's exact message for each code (reference §2.1). */
export const JSONRPC_MESSAGE: Readonly<Record<number, string>> = {
  [-32700]: "Parse error. Invalid JSON",
  [-32600]: "Invalid Request",
  [-32601]: "Method not found",
  [-32602]: "Invalid params",
  [-32603]: "Internal error",
  [-32000]: "Server error",
};

const CODE_OF: Record<RpcErrorCode, number> = {
  RPC_PARSE_ERROR: JSONRPC_CODE.parseError,
  RPC_INVALID_REQUEST: JSONRPC_CODE.invalidRequest,
  RPC_METHOD_NOT_FOUND: JSONRPC_CODE.methodNotFound,
  RPC_INVALID_PARAMS: JSONRPC_CODE.invalidParams,
  RPC_HANDLER_FAILED: JSONRPC_CODE.internalError,
  RPC_NOT_AVAILABLE: JSONRPC_CODE.internalError,
  RPC_SUBSCRIPTION_CANCELLED: JSONRPC_CODE.serverError,
  RPC_BAD_OPTIONS: JSONRPC_CODE.internalError,
  RPC_LISTEN_FAILED: JSONRPC_CODE.internalError,
};

export class RpcError extends CodedError<RpcErrorCode> {
  constructor(code: RpcErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  /** The JSON-RPC code this error is answered with. */
  get jsonRpcCode(): number {
    return CODE_OF[this.code];
  }
}

/** A route's failure with Tendermint's wording, e.g. "height must be greater than 0, but got -1". */
export function handlerError(message: string): RpcError {
  return new RpcError("RPC_HANDLER_FAILED", message);
}

/**
 * handlerError without a stack: a refusal a route answers per request under load (mempool full,
 * tx already in cache), whose stack nobody reads (the answer carries the message only).
 */
export function handlerRefusal(message: string): RpcError {
  return withoutStack(() => new RpcError("RPC_HANDLER_FAILED", message));
}

/** The JSON-RPC error object of any error a request ran into: `{code, message, data?}`. */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: string;
}

export function toJsonRpcError(error: unknown): JsonRpcErrorObject {
  if (error instanceof RpcError) {
    const code = error.jsonRpcCode;
    const message = JSONRPC_MESSAGE[code] ?? "Internal error";
    return error.message === "" ? { code, message } : { code, message, data: error.message };
  }
  const data = error instanceof Error ? error.message : String(error);
  return { code: JSONRPC_CODE.internalError, message: "Internal error", data };
}
