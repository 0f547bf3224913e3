// The late peer-metrics sink: what it hears before attach is folded into totals and replayed
// once, bounded in entries; after attach calls go straight through; attach is one-shot.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createNodeMetrics,
  LATE_PEER_METRICS_MAX_ENTRIES,
  latePeerMetricsSink,
} from "../../src/metrics/index.js";

test("early calls are folded and replayed into the registry on attach, later ones pass through", async () => {
  const late = latePeerMetricsSink();
  late.sink.peersChanged(1);
  late.sink.peersChanged(2);
  late.sink.bytesReceived("aa", 0x22, 10);
  late.sink.bytesReceived("aa", 0x22, 5);
  late.sink.txsReceived("aa", 2);
  late.sink.txsReceived("bb", 7);
  late.sink.peerRemoved("bb");
  late.sink.messageSent("consensus_Vote", 3);
  const m = createNodeMetrics({ namespace: "tm", chainId: "c" });
  late.attach(m.peers);
  late.sink.bytesReceived("aa", 0x22, 1);
  const text = await m.registry.metrics();
  assert.match(text, /^tm_p2p_peers\{chain_id="c"\} 2$/m);
  assert.match(text, /^tm_p2p_peer_receive_bytes_total\{peer_id="aa",chID="0x22",chain_id="c"\} 16$/m);
  assert.match(text, /^tm_p2p_num_txs\{peer_id="aa",chain_id="c"\} 2$/m);
  assert.doesNotMatch(
    text,
    /tm_p2p_num_txs\{peer_id="bb"/,
    "a peer that left before attach is not resurrected",
  );
  assert.match(text, /^tm_p2p_message_send_bytes_total\{message_type="consensus_Vote",chain_id="c"\} 3$/m);
  assert.throws(() => late.attach(m.peers), /attach called twice/);
});

test("before attach it keeps at most LATE_PEER_METRICS_MAX_ENTRIES entries per table", async () => {
  const late = latePeerMetricsSink();
  for (let i = 0; i < LATE_PEER_METRICS_MAX_ENTRIES + 10; i++) late.sink.bytesSent(`p${i}`, 0x20, 1);
  const seen: string[] = [];
  const m = createNodeMetrics({ namespace: "tm", chainId: "c" });
  late.attach({ ...m.peers, bytesSent: (peerId) => seen.push(peerId) });
  assert.equal(seen.length, LATE_PEER_METRICS_MAX_ENTRIES);
});
