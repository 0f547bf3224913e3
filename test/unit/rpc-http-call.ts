// An HTTP call as the RPC server's front receives it from uWS, from a local client with no CORS
// headers: what the front's tests feed it.
import type { HttpCall } from "../../src/rpc/server/http-front.js";

export function httpCall(method: string, path: string, query = "", extra: Partial<HttpCall> = {}): HttpCall {
  return {
    method,
    path,
    query,
    contentType: "",
    origin: "",
    corsRequestMethod: "",
    corsRequestHeaders: "",
    remoteAddress: "127.0.0.1:5000",
    ...extra,
  };
}
