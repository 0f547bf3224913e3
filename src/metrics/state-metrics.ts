// CometBFT v0.34's state metric (subsystem "state"): the time to execute a block, in milliseconds.
import { Histogram, type Registry } from "prom-client";
import { linearBuckets } from "./buckets.js";

export interface StateMetrics {
  blockProcessingTime: Histogram;
}

export function createStateMetrics(registry: Registry, namespace: string): StateMetrics {
  return {
    blockProcessingTime: new Histogram({
      name: `${namespace}_state_block_processing_time`,
      help: "Time between BeginBlock and EndBlock in ms.",
      buckets: linearBuckets(1, 10, 10),
      registers: [registry],
    }),
  };
}
