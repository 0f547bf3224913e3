// Starting the RPC server: options resolved, the encoder for rpc.compat chosen, the backend
// picked (uWS when its binary loads, node:http + ws otherwise, with a log line saying which).

import type { RpcContext } from "../context.js";
import { passThroughEncoder, type ResultEncoder } from "../encoder.js";
import { RpcError } from "../errors.js";
import { parseListenAddress, type RpcCompat, type RpcServerOptions, resolveRpcOptions } from "../options.js";
import type { ExtraPages } from "./http-front.js";
import { startNodeBackend } from "./node-backend.js";
import type { RpcObserver } from "./rpc-observer.js";
import { type RpcLogger, ServerCore } from "./server-core.js";
import { loadUws, startUwsBackend } from "./uws-backend.js";

export interface RpcServerDeps {
  logger: RpcLogger;
  /** the result encoders of src/wire/json, by rpc.compat; the pass-through encoder otherwise */
  encoders?: Partial<Record<RpcCompat, ResultEncoder>>;
  /** "auto" (default): uWS when it loads; "node" forces the fallback (tests, benchmarks) */
  backend?: "auto" | "uws" | "node";
  /** rxbft's version, shown on the index page */
  version?: string;
  /** told of every answered call and dropped subscription (the node's metrics) */
  observer?: RpcObserver;
  /** fixed pages by path, e.g. "/dashboard" */
  pages?: ExtraPages;
}

export interface RpcServerHandle {
  /** where it listens, e.g. tcp://127.0.0.1:26657 (the real port when 0 was asked) */
  address: string;
  port: number | undefined;
  backend: "uws" | "node";
  /** WebSocket clients holding at least one subscription */
  subscriberCount(): number;
  /** stops listening, tells subscribers, closes every connection */
  close(): Promise<void>;
}

export async function startRpcServer(
  partialOptions: Partial<RpcServerOptions>,
  context: RpcContext,
  deps: RpcServerDeps,
): Promise<RpcServerHandle> {
  const options = resolveRpcOptions(partialOptions);
  const { logger } = deps;
  const address = parseListenAddress(options.laddr);
  let encoder = deps.encoders?.[options.compat];
  if (encoder === undefined) {
    logger.warn("no result encoder for rpc.compat; results are plain JSON", { compat: options.compat });
    encoder = passThroughEncoder;
  }
  const tls =
    options.tlsCertFile === "" ? undefined : { certFile: options.tlsCertFile, keyFile: options.tlsKeyFile };
  const core = new ServerCore(options, context, encoder, logger, deps.version, deps.observer, deps.pages);
  const subscriberCount = () => core.hub.clientCount;
  const wanted = deps.backend ?? "auto";
  if (wanted !== "node") {
    const loaded = loadUws();
    if ("uws" in loaded) {
      const handle = await startUwsBackend(loaded.uws, core, address, tls);
      logger.info("RPC server listening (uWebSockets.js)", {
        address: handle.address,
        tls: tls !== undefined,
      });
      return { ...handle, backend: "uws", subscriberCount };
    }
    if (wanted === "uws")
      throw new RpcError("RPC_LISTEN_FAILED", `uWebSockets.js does not load: ${loaded.reason}`);
    logger.warn("uWebSockets.js does not load here; using node:http and ws", { reason: loaded.reason });
  }
  const handle = await startNodeBackend(core, address, tls);
  logger.info("RPC server listening (node:http)", { address: handle.address, tls: tls !== undefined });
  return { ...handle, backend: "node", subscriberCount };
}
