// The node's metrics, wired: one registry, the projections of the consensus and mempool loops,
// the consensus log's fsync timing, the RPC observer, and the Prometheus endpoint when
// [instrumentation] prometheus = true. node.ts calls startNodeMetrics once its loops exist.

import { type Observable, Subscription } from "rxjs";
import type { NodeConfig } from "../src/config/config-schema.js";
import type { Logger } from "../src/logger/index.js";
import type { MempoolInput } from "../src/mempool/input.js";
import {
  createNodeMetrics,
  type MetricsServerHandle,
  type NodeMetrics,
  startMetricsServer,
} from "../src/metrics/index.js";
import type { RpcObserver } from "../src/rpc/server/rpc-observer.js";
import type { Timestamp } from "../src/wire/generated/google/protobuf/timestamp.js";
import { type ConsensusFold, projectConsensusMetrics } from "./projections/metrics-consensus.js";
import { mempoolInputSource } from "./projections/metrics-input-source.js";
import { type MempoolMetricsSource, projectMempoolMetrics } from "./projections/metrics-mempool.js";

export interface NodeMetricsDeps {
  config: NodeConfig;
  chainId: string;
  consensusFold$: Observable<ConsensusFold>;
  mempool: MempoolMetricsSource & { transition$?: Observable<{ input: MempoolInput }> };
  /** The consensus log, told to report each fsync's duration. */
  wal: { onSynced: ((seconds: number) => void) | undefined };
  blockTimeAt(height: bigint): Promise<Timestamp | undefined>;
  logger: Logger;
}

export interface NodeMetricsHandle {
  readonly metrics: NodeMetrics;
  /** For the RPC server (rpc-start.ts): calls, latencies, dropped subscriptions. */
  readonly rpcObserver: RpcObserver;
  /** The RPC server reports its subscriber count through this once it runs. */
  readSubscribersFrom(read: () => number): void;
  /** The Prometheus endpoint, when enabled. */
  readonly server: MetricsServerHandle | undefined;
  stop(): Promise<void>;
}

export async function startNodeMetrics(deps: NodeMetricsDeps): Promise<NodeMetricsHandle> {
  const instrumentation = deps.config.instrumentation;
  const metrics = createNodeMetrics({ namespace: instrumentation.namespace, chainId: deps.chainId });
  const running = new Subscription();
  running.add(
    projectConsensusMetrics(deps.consensusFold$, {
      metrics,
      blockTimeAt: deps.blockTimeAt,
      now: () => performance.now(),
    }),
  );
  running.add(projectMempoolMetrics(deps.mempool, metrics));
  if (deps.mempool.transition$) {
    const counters = new Map<string, { inc(by: number): void }>();
    running.add(
      deps.mempool.transition$.subscribe(({ input }) => {
        const count = (source: string, by: number) => {
          const key = `${source}/${input.type}`;
          let c = counters.get(key);
          if (!c) {
            c = metrics.rxbft.inputsFolded.labels({ machine: "mempool", source, input: input.type });
            counters.set(key, c);
          }
          c.inc(by);
        };
        // A batch counts the inputs it carries (one per tx), each by its own source.
        if (input.type === "TxsSubmitted") {
          const { submissions } = input;
          const fromRpc = submissions.filter((s) => s.from === "rpc").length;
          if (fromRpc > 0) count("rpc", fromRpc);
          if (fromRpc < submissions.length) count("peer", submissions.length - fromRpc);
        } else if (input.type === "CheckTxsCompleted") {
          count("app", input.results.length);
        } else count(mempoolInputSource(input), 1);
      }),
    );
  }
  const fsync = metrics.rxbft.logFsyncSeconds;
  deps.wal.onSynced = (seconds) => fsync.observe(seconds);
  const rpc = metrics.rxbft;
  const rpcObserver: RpcObserver = {
    callAnswered: (route, seconds, ok) => {
      rpc.rpcRequests.inc({ route, outcome: ok ? "ok" : "error" });
      rpc.rpcRequestSeconds.observe({ route }, seconds);
    },
    subscriptionDropped: () => rpc.droppedSubscriptions.inc(),
  };
  let server: MetricsServerHandle | undefined;
  if (instrumentation.prometheus) {
    try {
      server = await startMetricsServer(metrics.registry, {
        listenAddr: instrumentation.prometheus_listen_addr,
        maxOpenConnections: instrumentation.max_open_connections,
      });
    } catch (error) {
      running.unsubscribe();
      deps.wal.onSynced = undefined;
      throw error;
    }
    deps.logger.info("serving Prometheus metrics", {
      address: server.address,
      namespace: instrumentation.namespace,
    });
  }
  return {
    metrics,
    rpcObserver,
    readSubscribersFrom: (read) => metrics.rxbft.readSubscribersFrom(read),
    server,
    stop: async () => {
      running.unsubscribe();
      deps.wal.onSynced = undefined;
      await server?.close();
    },
  };
}
