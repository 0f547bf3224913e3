// Starts the RPC server over the node's handle, with the node's RPC context (every route, in the
// two result forms of rpc.compat). genesis_chunked chunks the document as /genesis writes it in
// the node's form (as v0.34 chunks its own serialisation), never the file's bytes, so the two
// routes always agree. The server logs where it listens.
import type { Logger } from "../src/logger/index.js";
import { type RpcServerHandle, startRpcServer } from "../src/rpc/server/start.js";
import { RXBFT_VERSION } from "../src/version.js";
import { rpcOptionsOf } from "./node-config.js";
import type { NodeHandle } from "./node-handle.js";
import type { NodeMetricsHandle } from "./node-metrics.js";
import { dashboardPages } from "./projections/dashboard-pages.js";
import { createRpcContext, encoders } from "./projections/rpc-context.js";

/** Starts the server unless rpc.laddr is empty; resolves to its handle (undefined when off). */
export async function startNodeRpc(
  node: NodeHandle,
  home: string,
  log: Logger,
  backend?: "auto" | "uws" | "node",
  metrics?: Pick<NodeMetricsHandle, "rpcObserver" | "readSubscribersFrom">,
): Promise<RpcServerHandle | undefined> {
  if (node.config.rpc.laddr === "") return undefined;
  const context = createRpcContext(node);
  const server = await startRpcServer(rpcOptionsOf(node.config, home), context, {
    logger: log,
    encoders,
    ...(backend ? { backend } : {}),
    version: RXBFT_VERSION,
    pages: dashboardPages(),
    ...(metrics ? { observer: metrics.rpcObserver } : {}),
  });
  metrics?.readSubscribersFrom(() => server.subscriberCount());
  return server;
}
