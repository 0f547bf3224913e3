// Starts the RPC server over the node's handle. The full RPC context
// (streams/projections/rpc-context.ts, another engineer's) is used when the build has it;
// otherwise a minimal context serves health, status, abci_info, abci_query and the broadcast
// routes, so a node always answers the basics.
import type { Logger } from "../src/logger/index.js";
import type { RpcContext } from "../src/rpc/context.js";
import type { ResultEncoder } from "../src/rpc/encoder.js";
import type { RpcCompat } from "../src/rpc/options.js";
import { type RpcServerHandle, startRpcServer } from "../src/rpc/server/start.js";
import { RXBFT_VERSION } from "../src/version.js";
import { rpcOptionsOf } from "./node-config.js";
import type { NodeHandle } from "./node-handle.js";
import type { NodeMetricsHandle } from "./node-metrics.js";
import { dashboardPages } from "./projections/dashboard-pages.js";
import { createMinimalRpcContext } from "./projections/minimal-rpc-context.js";

interface FullContextModule {
  createRpcContext?: (
    node: NodeHandle,
    options?: { genesisFile?: string },
  ) => RpcContext | Promise<RpcContext>;
  encoders?: Partial<Record<RpcCompat, ResultEncoder>>;
}

// Kept out of the type checker's sight: the module may not exist in this build.
const FULL_CONTEXT_MODULE = "./projections/rpc-context.js";

async function loadContext(node: NodeHandle, genesisFile: string, log: Logger) {
  try {
    const mod = (await import(FULL_CONTEXT_MODULE)) as FullContextModule;
    if (typeof mod.createRpcContext === "function") {
      return { context: await mod.createRpcContext(node, { genesisFile }), encoders: mod.encoders };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  log.info("serving the minimal RPC context (health, status, abci_*, broadcast_tx_*, check_tx)");
  return { context: createMinimalRpcContext(node), encoders: undefined };
}

/** Starts the server unless rpc.laddr is empty; resolves to its handle (undefined when off). */
export async function startNodeRpc(
  node: NodeHandle,
  home: string,
  genesisFile: string,
  log: Logger,
  backend?: "auto" | "uws" | "node",
  metrics?: Pick<NodeMetricsHandle, "rpcObserver" | "readSubscribersFrom">,
): Promise<RpcServerHandle | undefined> {
  if (node.config.rpc.laddr === "") return undefined;
  const { context, encoders } = await loadContext(node, genesisFile, log);
  const server = await startRpcServer(rpcOptionsOf(node.config, home), context, {
    logger: log,
    ...(encoders ? { encoders } : {}),
    ...(backend ? { backend } : {}),
    version: RXBFT_VERSION,
    pages: dashboardPages(),
    ...(metrics ? { observer: metrics.rpcObserver } : {}),
  });
  metrics?.readSubscribersFrom(() => server.subscriberCount());
  log.info("RPC server listening", { address: server.address, backend: server.backend });
  return server;
}
