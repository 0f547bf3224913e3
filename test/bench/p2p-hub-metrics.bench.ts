// What the p2p metrics cost the peer hub's message path: 10 in-memory peers, each round
// broadcasting a 150-byte consensus vote message to all of them and delivering one vote message
// from each, with a hub reporting into a real Prometheus registry (createNodeMetrics) beside the
// same hub with NO_PEER_METRICS (the baseline: the path as it was before the metrics, plus an
// empty call). Messages per second, rounds alternating between the two, medians.
// Bounded in count and time; never fails on time. Writes bench-results/p2p-hub-metrics.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger } from "../../src/logger/index.js";
import { createNodeMetrics, NO_PEER_METRICS, type PeerMetricsSink } from "../../src/metrics/index.js";
import type { ConnectionStatus, PeerCloseReason, PeerConnection } from "../../src/p2p/types.js";
import { PeerHub } from "../../streams/sources/peers.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const ROUNDS = 7;
const ROUND_MS = 200;
const PEERS = 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Accepts every send, delivers what the bench pushes. */
class MemoryConnection implements PeerConnection {
  private listener: (c: number, m: Uint8Array) => void = () => {};
  readonly remoteAddress = { host: "127.0.0.1", port: 1 };
  readonly outbound = true;
  readonly remoteNodeInfo;
  constructor(readonly remoteId: string) {
    this.remoteNodeInfo = {
      protocolVersion: { p2p: 8n, block: 11n, app: 0n },
      defaultNodeId: remoteId,
      listenAddr: "tcp://127.0.0.1:1",
      network: "c",
      version: "0.34.24",
      channels: Uint8Array.of(0x20, 0x21, 0x22, 0x23, 0x30),
      moniker: "m",
      other: { txIndex: "on", rpcAddress: "" },
    };
  }
  send(): boolean {
    return true;
  }
  sendAll(): boolean {
    return true;
  }
  onMessage(listener: (channelId: number, message: Uint8Array) => void): void {
    this.listener = listener;
  }
  deliver(channelId: number, message: Uint8Array): void {
    this.listener(channelId, message);
  }
  onClose(_listener: (reason: PeerCloseReason) => void): void {}
  status(): ConnectionStatus {
    return { duration: 0, sendMonitor: {} as never, recvMonitor: {} as never, channels: [] };
  }
  close(): void {}
}

// consensus Message{vote = 6: 147 bytes of Vote}
const vote = Uint8Array.from([0x32, 0x93, 0x01, ...new Array(147).fill(0x01)]);

function setUp(metrics: PeerMetricsSink): { hub: PeerHub; connections: MemoryConnection[] } {
  const hub = new PeerHub(createLogger({ level: "none" }), metrics);
  hub.channel$(0x22).subscribe(() => {});
  const connections = Array.from(
    { length: PEERS },
    (_, i) => new MemoryConnection(i.toString(16).padStart(40, "0")),
  );
  for (const c of connections) hub.add(c.remoteId, c);
  return { hub, connections };
}

function round({ hub, connections }: ReturnType<typeof setUp>): number {
  let messages = 0;
  const start = performance.now();
  while (performance.now() - start < ROUND_MS && messages < 5_000_000) {
    for (let i = 0; i < 100; i++) {
      messages += hub.broadcast(0x22, vote);
      for (const c of connections) c.deliver(0x22, vote);
      messages += connections.length;
    }
  }
  return (messages / (performance.now() - start)) * 1000;
}

const withMetrics = setUp(createNodeMetrics({ namespace: "tm", chainId: "bench" }).peers);
const without = setUp(NO_PEER_METRICS);
round(withMetrics);
round(without);
const on: number[] = [];
const off: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  off.push(round(without));
  on.push(round(withMetrics));
}
const results = {
  peers: PEERS,
  messageBytes: vote.length,
  withMetricsMessagesPerSecond: Math.round(median(on)),
  noMetricsMessagesPerSecond: Math.round(median(off)),
  ratio: Number((median(on) / median(off)).toFixed(3)),
};
console.log(
  `peer hub, ${PEERS} peers, ${vote.length}-byte votes in and out: ${results.withMetricsMessagesPerSecond} msg/s with p2p metrics` +
    ` vs ${results.noMetricsMessagesPerSecond} msg/s without (same run): ratio ${results.ratio}`,
);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(join(root, "bench-results", "p2p-hub-metrics.json"), `${JSON.stringify(results, null, 2)}\n`);
