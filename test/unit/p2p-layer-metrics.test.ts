// The p2p metrics move with real traffic: two peer layers on loopback, one reporting into a real
// Prometheus registry (createNodeMetrics), the other through a late sink attached after its
// peer connected (as the node does: peers start before the metrics). The peers gauge follows
// the connection both ways, bytes and message types are counted per peer and channel on both
// sides, mempool txs per sender, the send-queue sample lands, and a leaving peer's series go.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, test } from "node:test";
import { createNodeMetrics, latePeerMetricsSink, type PeerMetricsSink } from "../../src/metrics/index.js";
import type { PeerLayer } from "../../streams/p2p-layer.js";
import { startNodePeerLayer } from "../../streams/p2p-transport.js";
import { freshHome, prepare } from "../integration/streams-node-helpers.js";
import { eventually } from "./p2p-test-peers.js";

const homes: string[] = [];
const layers: PeerLayer[] = [];
after(async () => {
  for (const l of layers) await l.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

/** Every call, in order, for the assertions on the late-attached side. */
function recordingSink(): PeerMetricsSink & { calls: [string, ...unknown[]][] } {
  const calls: [string, ...unknown[]][] = [];
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args]);
    };
  return {
    calls,
    peersChanged: record("peersChanged"),
    peerRemoved: record("peerRemoved"),
    bytesReceived: record("bytesReceived"),
    bytesSent: record("bytesSent"),
    pendingSendBytes: record("pendingSendBytes"),
    txsReceived: record("txsReceived"),
    messageReceived: record("messageReceived"),
    messageSent: record("messageSent"),
    mempoolOutboundConnections: record("mempoolOutboundConnections"),
  };
}

/** The value of one series in the exposition text, or undefined when it is absent. */
function series(text: string, name: string, labels: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}`));
  return line === undefined ? undefined : Number(line.split(" ").pop());
}

test("two real peer layers move the p2p gauge, byte and message counters, and tx counts", {
  timeout: 20_000,
}, async () => {
  const homeA = freshHome("rxbft-p2p-metrics-a-");
  const homeB = freshHome("rxbft-p2p-metrics-b-");
  homes.push(homeA, homeB);
  const preparedA = prepare(homeA, { "p2p.pex": false, "p2p.allow_duplicate_ip": true });
  const metrics = createNodeMetrics({ namespace: "tm", chainId: "streams-test" });
  const a = await startNodePeerLayer(preparedA, "streams-test", 0n, { metrics: metrics.peers });
  layers.push(a);

  const idA = preparedA.nodeId;
  const portA = a.listenAddr.split(":").pop();
  const preparedB = prepare(homeB, {
    "p2p.pex": false,
    "p2p.allow_duplicate_ip": true,
    "p2p.persistent_peers": `${idA}@127.0.0.1:${portA}`,
  });
  const idB = preparedB.nodeId;
  const late = latePeerMetricsSink();
  const b = await startNodePeerLayer(preparedB, "streams-test", 0n, { metrics: late.sink });
  layers.push(b);

  await eventually(() => a.hub.get(idB) !== undefined && b.hub.get(idA) !== undefined, 8_000);
  const peerLabel = `peer_id="${idB}",chID="0x30"`;
  let text = await metrics.registry.metrics();
  assert.equal(series(text, "tm_p2p_peers", ""), 1, "A counts B as its one peer");

  // B -> A before B's metrics are attached: kept by the late sink and replayed on attach.
  const mempoolMessage = Uint8Array.of(0x0a, 0x07, 0x0a, 0x01, 0x61, 0x0a, 0x02, 0x62, 0x63); // Txs{a, bc}
  assert.ok(b.hub.send(idA, 0x30, mempoolMessage));
  const recorded = recordingSink();
  late.attach(recorded);
  assert.deepEqual(
    recorded.calls.filter(([name]) => name !== "pendingSendBytes"),
    [
      ["bytesSent", idA, 0x30, 9],
      ["messageSent", "mempool_Txs", 9],
      ["peersChanged", 1],
    ],
  );
  // and after attach, calls go straight through (once the first left: the mempool queue holds one)
  await eventually(
    () =>
      b.hub
        .get(idA)
        ?.status()
        .channels.every((c) => c.sendQueueSize === 0) === true,
    5_000,
  );
  assert.ok(b.hub.send(idA, 0x30, mempoolMessage));
  assert.deepEqual(recorded.calls.slice(-2), [
    ["bytesSent", idA, 0x30, 9],
    ["messageSent", "mempool_Txs", 9],
  ]);

  // A received both messages: bytes per peer and channel, bytes per type, 2 txs each time.
  let deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    text = await metrics.registry.metrics();
    if (series(text, "tm_p2p_peer_receive_bytes_total", peerLabel) === 18) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(series(text, "tm_p2p_peer_receive_bytes_total", peerLabel), 18);
  assert.equal(series(text, "tm_p2p_message_receive_bytes_total", 'message_type="mempool_Txs"'), 18);
  assert.equal(series(text, "tm_p2p_num_txs", `peer_id="${idB}"`), 4);

  // A -> B through the broadcaster's path: A's send counters move, B records the receive.
  const vote = Uint8Array.of(0x32, 0x00); // consensus Message{vote: {}}
  assert.equal(a.hub.broadcast(0x22, vote), 1);
  text = await metrics.registry.metrics();
  assert.equal(series(text, "tm_p2p_peer_send_bytes_total", `peer_id="${idB}",chID="0x22"`), 2);
  assert.equal(series(text, "tm_p2p_message_send_bytes_total", 'message_type="consensus_Vote"'), 2);
  await eventually(() => recorded.calls.some(([name]) => name === "messageReceived"), 5_000);
  assert.deepEqual(
    recorded.calls.filter(([name]) => name === "bytesReceived" || name === "messageReceived"),
    [
      ["bytesReceived", idA, 0x22, 2],
      ["messageReceived", "consensus_Vote", 2],
    ],
  );

  // The send-queue sample (a timer in the layer, called here directly) sets the pending gauge.
  a.hub.samplePendingSends();
  text = await metrics.registry.metrics();
  assert.equal(series(text, "tm_p2p_peer_pending_send_bytes", `peer_id="${idB}"`), 0);

  // B leaves: A's gauge drops to 0 and B's per-peer gauges are dropped.
  await b.stop();
  deadline = Date.now() + 5_000;
  while (Date.now() < deadline && a.hub.get(idB) !== undefined) await new Promise((r) => setTimeout(r, 20));
  text = await metrics.registry.metrics();
  assert.equal(series(text, "tm_p2p_peers", ""), 0);
  assert.equal(series(text, "tm_p2p_peer_receive_bytes_total", peerLabel), 18, "counters outlive the peer");
  assert.equal(series(text, "tm_p2p_num_txs", `peer_id="${idB}"`), undefined);
  assert.equal(series(text, "tm_p2p_peer_pending_send_bytes", `peer_id="${idB}"`), undefined);
  assert.ok(
    recorded.calls.some(([name, id]) => name === "peerRemoved" && id === idA),
    "B's own sink heard A leave as it stopped",
  );
});
