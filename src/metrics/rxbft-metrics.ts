// rxbft's own metrics, under `rxbft_` (not the Tendermint namespace: they have no v0.34 meaning):
// RPC requests and latency by route, WebSocket subscribers and dropped subscriptions, the
// consensus log's fsync latency, and inputs folded by type and source (rate() gives per second).
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { exponentialBuckets } from "./buckets.js";

export interface RxbftMetrics {
  rpcRequests: Counter<"route" | "outcome">;
  rpcRequestSeconds: Histogram<"route">;
  websocketSubscribers: Gauge;
  droppedSubscriptions: Counter;
  logFsyncSeconds: Histogram;
  inputsFolded: Counter<"machine" | "source" | "input">;
  /** Where the subscriber count is read at each scrape (the RPC server's subscription hub). */
  readSubscribersFrom(read: () => number): void;
}

export function createRxbftMetrics(registry: Registry): RxbftMetrics {
  const registers = [registry];
  let subscribers: (() => number) | undefined;
  return {
    rpcRequests: new Counter({
      name: "rxbft_rpc_requests_total",
      help: "RPC calls answered, by route and outcome (ok or error), over HTTP, JSON-RPC and WebSocket.",
      labelNames: ["route", "outcome"],
      registers,
    }),
    rpcRequestSeconds: new Histogram({
      name: "rxbft_rpc_request_duration_seconds",
      help: "Time from a call's dispatch to its encoded answer, by route.",
      labelNames: ["route"],
      buckets: exponentialBuckets(0.00005, 4, 10),
      registers,
    }),
    websocketSubscribers: new Gauge({
      name: "rxbft_rpc_websocket_subscribers",
      help: "WebSocket clients holding at least one event subscription.",
      registers,
      collect() {
        if (subscribers) this.set(subscribers());
      },
    }),
    droppedSubscriptions: new Counter({
      name: "rxbft_rpc_dropped_subscriptions_total",
      help: "Event subscriptions cancelled because their client could not keep up.",
      registers,
    }),
    logFsyncSeconds: new Histogram({
      name: "rxbft_consensus_log_fsync_seconds",
      help: "Duration of each write-and-fdatasync of the consensus log (data/cs.wal).",
      buckets: exponentialBuckets(0.0001, 2, 14),
      registers,
    }),
    inputsFolded: new Counter({
      name: "rxbft_inputs_folded_total",
      help: "Inputs folded by a state machine, by machine, source (peer, timer, signer, app, mempool, rpc, node) and input type.",
      labelNames: ["machine", "source", "input"],
      registers,
    }),
    readSubscribersFrom(read) {
      subscribers = read;
    },
  };
}
