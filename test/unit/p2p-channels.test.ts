// Every v0.34 channel with its priority and capacities, in NodeInfo order.
import assert from "node:assert/strict";
import { test } from "node:test";
import { channelIds, mempoolRecvMessageCapacity, v034ChannelDescriptors } from "../../src/p2p/channels.js";

test("channels: v0.34's set and order (40 20 21 22 23 30 38 60 61 00)", () => {
  assert.equal(Buffer.from(channelIds(v034ChannelDescriptors())).toString("hex"), "40202122233038606100");
  assert.equal(
    Buffer.from(channelIds(v034ChannelDescriptors({ pex: false }))).toString("hex"),
    "402021222330386061",
  );
});

test("channels: priorities, send queues and receive capacities match v0.34", () => {
  const table = Object.fromEntries(
    v034ChannelDescriptors().map((c) => [c.id, [c.priority, c.sendQueueCapacity, c.recvMessageCapacity]]),
  );
  assert.deepEqual(table, {
    0: [1, 10, 64000],
    32: [6, 100, 1048576],
    33: [10, 100, 1048576],
    34: [7, 100, 1048576],
    35: [1, 2, 1048576],
    48: [5, 1, 1048584],
    56: [6, 1, 1048576],
    64: [5, 1000, 104857605],
    96: [5, 10, 4000000],
    97: [3, 10, 16000000],
  });
});

test("channels: mempool capacity follows the receiver's max_tx_bytes", () => {
  assert.equal(mempoolRecvMessageCapacity(1048576), 1048584);
  // Message{txs{[100 bytes]}}: tag+len+(tag+len+100) = 1 + 1 + 102.
  assert.equal(mempoolRecvMessageCapacity(100), 104);
  const small = v034ChannelDescriptors({ maxTxBytes: 1000 }).find((c) => c.id === 0x30);
  assert.equal(small?.recvMessageCapacity, mempoolRecvMessageCapacity(1000));
});

test("channels: the consensus channels flush promptly; bulk channels wait for flush_throttle_timeout", () => {
  const prompt = v034ChannelDescriptors()
    .filter((c) => c.flushPromptly === true)
    .map((c) => c.id.toString(16));
  assert.deepEqual(prompt, ["20", "21", "22", "23"]);
});
