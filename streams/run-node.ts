// The body of `rxbft node`: start the node from a prepared home, stop it on SIGINT/SIGTERM, and
// resolve to the process exit code (0 after a requested stop; the halt's code otherwise). A
// second signal while stopping exits at once (the log and the stores repair at the next start).

import { releaseIdleLevelMemoryForLog } from "../src/level/idle-release.js";
import type { PreparedNode } from "./boot/prepare-home.js";
import { applyHeapGrowing } from "./heap-growing.js";
import { startIdleHeap } from "./idle-heap.js";
import { type StartNodeOptions, startNode } from "./node.js";
import type { NodeHandle } from "./node-handle.js";

export async function runNode(prepared: PreparedNode, options: StartNodeOptions = {}): Promise<number> {
  const log = prepared.logger.child("node");
  log.info("starting node", {
    chain_id: prepared.genesis.chainId,
    node_id: prepared.nodeId,
    home: prepared.home,
    proxy_app: prepared.config.proxy_app,
  });
  applyHeapGrowing(prepared.config.heap_growing_percent);
  let node: NodeHandle | undefined;
  const abort = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals > 1) {
      log.warn("second signal while stopping: exiting now", { signal });
      process.exit(130);
    }
    log.info("captured signal, stopping", { signal });
    // During start (e.g. while waiting for a socket app) the start is aborted and unwound.
    if (node) void node.stop();
    else abort.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    try {
      node = await startNode(prepared, { ...options, signal: abort.signal });
    } catch (error) {
      if (!abort.signal.aborted) throw error;
      log.info("stopped while starting");
      return 0;
    }
    const started = node;
    const stopIdleHeap = startIdleHeap(prepared.config.idle_heap_collect_seconds, {
      pendingTxs: () => {
        const mempool = started.mempool.state();
        return mempool.txs.size + mempool.checking.size;
      },
      log: prepared.logger.child("memory"),
      release: releaseIdleLevelMemoryForLog,
    });
    const exit = await node.stopped;
    stopIdleHeap();
    if (exit.exitCode !== 0) log.error(exit.reason);
    return exit.exitCode;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
