// The last boot step: the RPC server over the node handle (rpc-start.ts), when rpc.laddr is set.
// Its address goes into the handle's nodeInfo. It is the first thing a stop closes (no new
// requests while the rest shuts down); a halt already under way closes it at once.
import type { Logger } from "../../src/logger/index.js";
import type { NodeHandle } from "../node-handle.js";
import type { NodeLifecycle } from "../node-lifecycle.js";
import type { NodeMetricsHandle } from "../node-metrics.js";
import { startNodeRpc } from "../rpc-start.js";

export async function serveRpc(
  handle: NodeHandle,
  home: string,
  life: NodeLifecycle,
  log: Logger,
  backend: "auto" | "uws" | "node" | undefined,
  metrics: NodeMetricsHandle | undefined,
): Promise<void> {
  const server = await startNodeRpc(handle, home, log, backend, metrics);
  if (!server) return;
  handle.nodeInfo.rpcAddress = server.address;
  // A halt during the start (one re-applied from the log) has already cleaned up: close the
  // server now, or it would keep the process alive.
  if (life.isStopping) await server.close();
  else life.onCleanup(() => server.close());
}
