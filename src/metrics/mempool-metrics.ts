// CometBFT v0.34's mempool metrics (subsystem "mempool"), names, types and labels as v0.34.35.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { exponentialBuckets } from "./buckets.js";

export interface MempoolMetrics {
  size: Gauge;
  sizeBytes: Gauge;
  txSizeBytes: Histogram;
  failedTxs: Counter;
  rejectedTxs: Counter;
  evictedTxs: Counter;
  recheckTimes: Counter;
  activeOutboundConnections: Gauge;
  /** Where size and size_bytes are read at each scrape (the pool's current state). */
  readSizeFrom(read: () => { txs: number; bytes: number }): void;
}

export function createMempoolMetrics(registry: Registry, namespace: string): MempoolMetrics {
  const name = (n: string) => `${namespace}_mempool_${n}`;
  const registers = [registry];
  let read: (() => { txs: number; bytes: number }) | undefined;
  return {
    size: new Gauge({
      name: name("size"),
      help: "Size of the mempool (number of uncommitted transactions).",
      registers,
      collect() {
        if (read) this.set(read().txs);
      },
    }),
    sizeBytes: new Gauge({
      name: name("size_bytes"),
      help: "Total size of the mempool in bytes.",
      registers,
      collect() {
        if (read) this.set(read().bytes);
      },
    }),
    txSizeBytes: new Histogram({
      name: name("tx_size_bytes"),
      help: "Transaction sizes in bytes.",
      buckets: exponentialBuckets(1, 3, 17),
      registers,
    }),
    failedTxs: new Counter({ name: name("failed_txs"), help: "Number of failed transactions.", registers }),
    rejectedTxs: new Counter({
      name: name("rejected_txs"),
      help: "Number of rejected transactions.",
      registers,
    }),
    evictedTxs: new Counter({
      name: name("evicted_txs"),
      help: "Number of evicted transactions.",
      registers,
    }),
    recheckTimes: new Counter({
      name: name("recheck_times"),
      help: "Number of times transactions are rechecked in the mempool.",
      registers,
    }),
    activeOutboundConnections: new Gauge({
      name: name("active_outbound_connections"),
      help: "Number of connections being actively used for gossiping transactions (experimental feature).",
      registers,
    }),
    readSizeFrom(reader) {
      read = reader;
    },
  };
}
