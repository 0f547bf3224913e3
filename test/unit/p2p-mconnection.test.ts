// MConnection on an in-memory transport: scheduling, flushing, rate limits, ping/pong, and every
// kind of bad packet, each closing the connection with its code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { v034ChannelDescriptors } from "../../src/p2p/channels.js";
import { DEFAULT_MCONNECTION_CONFIG, MConnection } from "../../src/p2p/mconnection/mconnection.js";
import {
  encodePacketMsgDelimited,
  PING_DELIMITED,
  PONG_DELIMITED,
} from "../../src/p2p/mconnection/packet.js";
import type { ChannelDescriptor, MConnectionConfig, PeerCloseReason } from "../../src/p2p/types.js";
import { eventually, MemoryTransport } from "./p2p-test-peers.js";

const CH_A = 0x70;
const CH_B = 0x71;
const channels: ChannelDescriptor[] = [
  { id: CH_A, priority: 10, sendQueueCapacity: 3, recvBufferCapacity: 0, recvMessageCapacity: 5000 },
  { id: CH_B, priority: 1, sendQueueCapacity: 100, recvBufferCapacity: 0, recvMessageCapacity: 5000 },
];
const fast: MConnectionConfig = { ...DEFAULT_MCONNECTION_CONFIG, flushThrottleMs: 5 };

function make(config: Partial<MConnectionConfig> = {}, descriptors = channels) {
  const transport = new MemoryTransport();
  const connection = new MConnection(transport, descriptors, { ...fast, ...config });
  const messages: [number, Uint8Array][] = [];
  const closes: PeerCloseReason[] = [];
  connection.onMessage((ch, m) => messages.push([ch, m]));
  connection.onClose((r) => closes.push(r));
  connection.start();
  return { transport, connection, messages, closes };
}

function closedWith(closes: PeerCloseReason[], code: string) {
  assert.equal(closes.length, 1, "closed exactly once");
  assert.equal(closes[0].code, code, closes[0].message);
}

test("mconnection: a ping is answered with a pong at once", () => {
  const { transport, connection } = make();
  transport.feed(PING_DELIMITED);
  assert.deepEqual(transport.writtenBytes(), Buffer.from(PONG_DELIMITED));
  connection.close("x");
});

test("mconnection: we ping on the interval and a missing pong closes with P2P_PONG_TIMEOUT", async () => {
  const { transport, closes } = make({ pingIntervalMs: 20, pongTimeoutMs: 40 });
  await eventually(() => closes.length > 0, 2000);
  closedWith(closes, "P2P_PONG_TIMEOUT");
  assert.ok(transport.writtenBytes().includes(Buffer.from(PING_DELIMITED)));
  assert.equal(transport.closedWith?.graceful, false);
});

test("mconnection: pongs keep the connection alive", async () => {
  const { transport, connection, closes } = make({ pingIntervalMs: 20, pongTimeoutMs: 40 });
  const timer = setInterval(() => transport.feed(PONG_DELIMITED), 10);
  await new Promise((r) => setTimeout(r, 200));
  clearInterval(timer);
  assert.equal(closes.length, 0);
  connection.close("x");
});

test("mconnection: a flushPromptly channel's packet goes out in its turn, with the bulk batched beside it", async () => {
  const CH_P = 0x72;
  const prompt: ChannelDescriptor = { ...channels[1]!, id: CH_P, flushPromptly: true };
  const { transport, connection } = make({ flushThrottleMs: 10_000 }, [...channels, prompt]);
  connection.send(CH_B, Uint8Array.of(1));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(transport.written.length, 0, "bulk alone waits for the throttle");
  connection.send(CH_P, Uint8Array.of(2));
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(transport.written.length, 1, "one write for the prompt packet and the bulk beside it");
  assert.deepEqual(
    new Set(splitPackets(transport.writtenBytes())),
    new Set([
      Buffer.from(encodePacketMsgDelimited(CH_B, true, Uint8Array.of(1))).toString("hex"),
      Buffer.from(encodePacketMsgDelimited(CH_P, true, Uint8Array.of(2))).toString("hex"),
    ]),
  );
  connection.close("x");
});

/** The delimited packets of a write, as hex (each is 1 length byte here: they are tiny). */
function splitPackets(bytes: Uint8Array): string[] {
  const out: string[] = [];
  for (let at = 0; at < bytes.length; ) {
    const length = bytes[at]!;
    out.push(Buffer.from(bytes.subarray(at, at + 1 + length)).toString("hex"));
    at += 1 + length;
  }
  return out;
}

test("mconnection: small messages wait for the flush throttle, then go out batched", async () => {
  const { transport, connection } = make({ flushThrottleMs: 60 });
  connection.send(CH_A, Uint8Array.of(1));
  connection.send(CH_A, Uint8Array.of(2));
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(transport.written.length, 0, "not flushed before the throttle");
  await eventually(() => transport.written.length > 0, 1000);
  assert.equal(transport.written.length, 1, "one write for both packets");
  assert.deepEqual(
    transport.writtenBytes(),
    Buffer.concat([
      encodePacketMsgDelimited(CH_A, true, Uint8Array.of(1)),
      encodePacketMsgDelimited(CH_A, true, Uint8Array.of(2)),
    ]),
  );
  connection.close("x");
});

test("mconnection: a full send queue refuses, unknown channels refuse, closed refuses", () => {
  const { connection } = make();
  for (let i = 0; i < 3; i++) assert.equal(connection.send(CH_A, Uint8Array.of(i)), true);
  assert.equal(connection.send(CH_A, Uint8Array.of(9)), false);
  assert.equal(connection.send(0x99, Uint8Array.of(9)), false);
  assert.equal(connection.status().channels.find((c) => c.id === CH_A)?.sendQueueSize, 3);
  connection.close("x");
  assert.equal(connection.send(CH_B, Uint8Array.of(9)), false);
});

test("mconnection: the channel with lower recentlySent/priority goes first", async () => {
  const { transport, connection } = make();
  // Both queue 3 messages of 1000 bytes; priority 10 vs 1 means A's packets are all picked first.
  for (let i = 0; i < 3; i++) connection.send(CH_B, new Uint8Array(1000).fill(0xb0 + i));
  for (let i = 0; i < 3; i++) connection.send(CH_A, new Uint8Array(1000).fill(0xa0 + i));
  await eventually(() => transport.written.length > 0);
  const stream = transport.writtenBytes();
  const order: number[] = [];
  for (let at = 0; at < stream.length; ) {
    const length = stream[at] | ((stream[at + 1] & 0x7f) << 7);
    order.push(stream[at + 2 + 4]); // channel_id byte after 1a <len:2> 08
    at += 2 + length;
  }
  // First pick is a tie at 0 (A: 0/10, B: 0/1 → A by list order), and A keeps winning while
  // its recentlySent/10 stays below B's.
  assert.deepEqual(order.slice(0, 2), [CH_A, CH_B]);
  assert.equal(order.length, 6);
  assert.ok(order.lastIndexOf(CH_A) < order.lastIndexOf(CH_B), `order ${order}`);
  connection.close("x");
});

test("mconnection: send_rate holds the long-run rate", async () => {
  const { transport, connection } = make({ sendRate: 100_000 });
  const started = Date.now();
  for (let i = 0; i < 40; i++) connection.send(CH_B, new Uint8Array(1000));
  await eventually(() => transport.writtenBytes().length >= 40 * 1000, 5000);
  const elapsed = Date.now() - started;
  // 40 KB at 100 KB/s with a 10 KB burst: at least ~300 ms.
  assert.ok(elapsed >= 250, `took ${elapsed} ms`);
  connection.close("x");
});

test("mconnection: recv_rate pauses reading when exceeded", () => {
  const { transport, connection } = make({ recvRate: 10_000 });
  const packet = encodePacketMsgDelimited(CH_B, true, new Uint8Array(1000));
  for (let i = 0; i < 5; i++) transport.feed(packet);
  assert.equal(transport.paused, true);
  connection.close("x");
});

test("mconnection: messages are reassembled from packets; interleaved channels keep their own buffers", () => {
  const { transport, connection, messages } = make();
  const a = new Uint8Array(2500).map((_, i) => i & 0xff);
  const b = new Uint8Array(1500).fill(7);
  transport.feed(encodePacketMsgDelimited(CH_A, false, a.subarray(0, 1024)));
  transport.feed(encodePacketMsgDelimited(CH_B, false, b.subarray(0, 1024)));
  transport.feed(encodePacketMsgDelimited(CH_A, false, a.subarray(1024, 2048)));
  transport.feed(encodePacketMsgDelimited(CH_B, true, b.subarray(1024)));
  transport.feed(encodePacketMsgDelimited(CH_A, true, a.subarray(2048)));
  assert.deepEqual(messages, [
    [CH_B, b],
    [CH_A, a],
  ]);
  connection.close("x");
});

test("mconnection: a packet longer than the maximum closes with P2P_PACKET_TOO_LARGE", () => {
  const { transport, closes } = make();
  transport.feed(Uint8Array.of(0x8b, 0x08)); // 1035
  closedWith(closes, "P2P_PACKET_TOO_LARGE");
  assert.equal(transport.closedWith?.graceful, false);
});

test("mconnection: an overlong varint prefix closes with P2P_PACKET_TOO_LARGE", () => {
  const { transport, closes } = make();
  transport.feed(new Uint8Array(11).fill(0xff));
  closedWith(closes, "P2P_PACKET_TOO_LARGE");
});

test("mconnection: a data payload over max_packet_msg_payload_size is refused", () => {
  const { transport, closes } = make({ maxPacketMsgPayloadSize: 100 });
  transport.feed(encodePacketMsgDelimited(CH_A, true, new Uint8Array(101)));
  closedWith(closes, "P2P_PACKET_TOO_LARGE");
});

test("mconnection: garbage in a Packet closes with P2P_BAD_PACKET", () => {
  for (const garbage of [
    [0x03, 0xff, 0xff, 0xff], // truncated varint tag
    [0x02, 0x1a, 0x05], // field 3 length past the end
    [0x02, 0x08, 0x01], // oneof field with varint wire type
    [0x00], // empty Packet: unknown message type
    [0x02, 0x22, 0x00], // only an unknown field
    [0x04, 0x1a, 0x02, 0x0b, 0x00], // PacketMsg with wire type 3
  ]) {
    const { transport, closes } = make();
    transport.feed(Uint8Array.from(garbage));
    closedWith(closes, "P2P_BAD_PACKET");
  }
});

test("mconnection: an unknown channel closes with P2P_UNKNOWN_CHANNEL", () => {
  const { transport, closes } = make();
  transport.feed(encodePacketMsgDelimited(0x22, true, Uint8Array.of(1)));
  closedWith(closes, "P2P_UNKNOWN_CHANNEL");
  assert.match(closes[0].message, /0x22/);
});

test("mconnection: a message over the channel's capacity closes with P2P_MESSAGE_TOO_LARGE", () => {
  const { transport, closes, messages } = make();
  for (let i = 0; i < 4; i++) transport.feed(encodePacketMsgDelimited(CH_A, false, new Uint8Array(1024)));
  assert.equal(closes.length, 0);
  transport.feed(encodePacketMsgDelimited(CH_A, false, new Uint8Array(1024)));
  closedWith(closes, "P2P_MESSAGE_TOO_LARGE");
  assert.equal(messages.length, 0);
});

test("mconnection: a bad packet after good ones still delivers the good ones, then nothing", () => {
  const { transport, closes, messages } = make();
  const good = encodePacketMsgDelimited(CH_A, true, Uint8Array.of(1, 2, 3));
  transport.feed(Buffer.concat([good, Uint8Array.of(0x00), good]));
  assert.equal(messages.length, 1);
  closedWith(closes, "P2P_BAD_PACKET");
  transport.feed(good);
  assert.equal(messages.length, 1);
});

test("mconnection: a listener that throws stops this peer with P2P_BAD_MESSAGE", () => {
  const transport = new MemoryTransport();
  const connection = new MConnection(transport, channels, fast);
  const closes: PeerCloseReason[] = [];
  connection.onMessage(() => {
    throw new Error("cannot decode NewRoundStep");
  });
  connection.onClose((r) => closes.push(r));
  connection.start();
  transport.feed(encodePacketMsgDelimited(CH_A, true, Uint8Array.of(1)));
  closedWith(closes, "P2P_BAD_MESSAGE");
  assert.match(closes[0].message, /cannot decode NewRoundStep/);
});

test("mconnection: the peer hanging up closes once with P2P_CLOSED_BY_PEER", () => {
  const { transport, closes } = make();
  transport.hangUp();
  transport.hangUp();
  closedWith(closes, "P2P_CLOSED_BY_PEER");
});

test("mconnection: messages before the first listener wait (reading paused) and are then delivered", async () => {
  const transport = new MemoryTransport();
  const connection = new MConnection(transport, v034ChannelDescriptors(), fast);
  connection.start();
  transport.feed(encodePacketMsgDelimited(0x20, true, Uint8Array.of(0x0a, 0x00)));
  assert.equal(transport.paused, true);
  const got: number[] = [];
  connection.onMessage((ch) => got.push(ch));
  await eventually(() => got.length === 1);
  assert.equal(transport.paused, false);
  connection.close("x");
});

test("mconnection: status reports monitors and channels", () => {
  const { transport, connection } = make();
  transport.feed(encodePacketMsgDelimited(CH_A, true, new Uint8Array(100)));
  const status = connection.status();
  assert.equal(status.recvMonitor.bytes, encodePacketMsgDelimited(CH_A, true, new Uint8Array(100)).length);
  assert.equal(status.recvMonitor.active, true);
  assert.deepEqual(
    status.channels.map((c) => [c.id, c.priority, c.sendQueueCapacity]),
    [
      [CH_A, 10, 3],
      [CH_B, 1, 100],
    ],
  );
  connection.close("x");
  assert.equal(connection.status().recvMonitor.active, false);
});

test("mconnection: a graceful close writes every queued message first (v0.34 FlushStop)", () => {
  const { transport, connection } = make({ sendRate: 1 }); // the rate limit does not hold a close back
  for (let i = 0; i < 3; i++) connection.send(CH_A, new Uint8Array(1500).fill(i));
  for (let i = 0; i < 5; i++) connection.send(CH_B, new Uint8Array(10).fill(i));
  connection.close("seed is done");
  assert.equal(transport.closedWith?.graceful, true);
  const receiver = make();
  receiver.transport.feed(transport.writtenBytes());
  assert.equal(receiver.messages.filter(([c]) => c === CH_A).length, 3);
  assert.equal(receiver.messages.filter(([c]) => c === CH_B).length, 5);
  receiver.connection.close("x");
});

test("mconnection: sendAll queues several messages in order, all or none, and writes exactly the packets of sending them one by one", async () => {
  const one = {
    id: CH_A,
    priority: 10,
    sendQueueCapacity: 1,
    recvBufferCapacity: 0,
    recvMessageCapacity: 5000,
  };
  // messages of 1, 1,500 (two packets) and 3 bytes
  const group = [Uint8Array.of(1), new Uint8Array(1500).fill(7), Uint8Array.of(3, 3, 3)];
  const apart = make({}, [{ ...one, sendQueueCapacity: 3 }]);
  for (const m of group) assert.equal(apart.connection.send(CH_A, m), true);
  const together = make({}, [one]);
  assert.equal(together.connection.sendAll(CH_A, group), true);
  assert.equal(
    together.connection.sendAll(CH_A, [Uint8Array.of(9)]),
    false,
    "the queue's one place is taken",
  );
  assert.equal(together.connection.send(CH_A, Uint8Array.of(9)), false);
  await eventually(() => together.transport.written.length > 0 && apart.transport.written.length > 0, 2000);
  assert.deepEqual(together.transport.writtenBytes(), apart.transport.writtenBytes());
  const packets = [
    encodePacketMsgDelimited(CH_A, true, group[0]!),
    encodePacketMsgDelimited(CH_A, false, group[1]!.subarray(0, 1024)),
    encodePacketMsgDelimited(CH_A, true, group[1]!.subarray(1024)),
    encodePacketMsgDelimited(CH_A, true, group[2]!),
  ];
  assert.deepEqual(
    together.transport.writtenBytes(),
    Buffer.concat(packets),
    "each message its own packets and eof",
  );
  assert.equal(together.connection.sendAll(CH_A, [Uint8Array.of(9)]), true, "room again once written");
  apart.connection.close("x");
  together.connection.close("x");
});

/** Waits for the turn after the connection's scheduled send (setImmediate runs in order). */
const nextTurn = () => new Promise((r) => setImmediate(r));
const totalWritten = (t: MemoryTransport) => t.written.reduce((n, w) => n + w.length, 0);

test("mconnection: full batches keep going out in the same turn while the socket takes them", async () => {
  const CH_P = 0x72;
  const prompt: ChannelDescriptor = { ...channels[1]!, id: CH_P, flushPromptly: true };
  const { transport, connection } = make({}, [...channels, prompt]);
  // Four 64 KiB block parts queued together, as the consensus reactor queues a proposal's parts.
  for (let i = 0; i < 4; i++) connection.send(CH_P, new Uint8Array(65536).fill(i));
  await nextTurn();
  assert.ok(
    totalWritten(transport) >= 4 * 65536,
    `all four parts written in one turn, got ${totalWritten(transport)} bytes in ${transport.written.length} writes`,
  );
  connection.close("x");
});

test("mconnection: a socket that holds bytes stops the writes until it drains; a turn writes at most 512 KiB", async () => {
  const CH_P = 0x72;
  const prompt: ChannelDescriptor = { ...channels[1]!, id: CH_P, flushPromptly: true };
  const { transport, connection } = make({ sendRate: 100_000_000 }, [...channels, prompt]);
  transport.accepting = false;
  for (let i = 0; i < 20; i++) connection.send(CH_P, new Uint8Array(65536).fill(i));
  await nextTurn();
  await nextTurn();
  assert.equal(
    transport.written.length,
    1,
    "one batch handed to a socket that did not take it, then nothing",
  );
  transport.drain();
  await nextTurn();
  const afterOneTurn = totalWritten(transport);
  assert.ok(afterOneTurn > 65536, "the drain resumed the writes");
  assert.ok(afterOneTurn <= 9 * 65536 + 8 * 2048, `one turn wrote ${afterOneTurn} bytes`);
  await eventually(() => totalWritten(transport) >= 20 * 65536);
  connection.close("x");
});

test("mconnection: a flushPromptly channel's packet is written once the work that queued it is done, not a turn later", async () => {
  const CH_P = 0x72;
  const prompt: ChannelDescriptor = { ...channels[1]!, id: CH_P, flushPromptly: true };
  const { transport, connection } = make({ flushThrottleMs: 10_000 }, [...channels, prompt]);
  // A vote to one peer and one more message queued by the same fold: one write, before any other
  // callback of this turn (the poll phase's next socket read or RPC request) runs.
  connection.send(CH_P, Uint8Array.of(1));
  connection.send(CH_P, Uint8Array.of(2));
  assert.equal(transport.written.length, 0, "nothing written while the fold still runs");
  await Promise.resolve();
  assert.equal(transport.written.length, 1, "written in the microtasks after the fold");
  // Bulk alone still waits for its turn and the throttle.
  connection.send(CH_B, Uint8Array.of(3));
  await Promise.resolve();
  assert.equal(transport.written.length, 1, "a bulk packet alone is not written at once");
  connection.close("x");
});

test("mconnection: prompt sends in a turn that already wrote 512 KiB wait for the next turn", async () => {
  const CH_P = 0x72;
  const prompt: ChannelDescriptor = { ...channels[1]!, id: CH_P, flushPromptly: true };
  const { transport, connection } = make({ sendRate: 100_000_000 }, [...channels, prompt]);
  for (let i = 0; i < 12; i++) connection.send(CH_P, new Uint8Array(65536).fill(i));
  await Promise.resolve();
  const first = totalWritten(transport);
  assert.ok(first >= 8 * 65536 && first <= 9 * 65536 + 8 * 2048, `the first run wrote ${first} bytes`);
  connection.send(CH_P, Uint8Array.of(7));
  await Promise.resolve();
  assert.equal(totalWritten(transport), first, "nothing more in the same turn");
  await nextTurn();
  await nextTurn();
  assert.ok(totalWritten(transport) > first, "the rest went in a later turn");
  await eventually(() => totalWritten(transport) >= 12 * 65536 + 1);
  connection.close("x");
});

test("mconnection: a one-packet message is a plain Uint8Array view of the chunk read, not a copy", () => {
  const { transport, connection, messages } = make();
  const message = Uint8Array.of(1, 2, 3, 4, 5);
  const chunk = Buffer.from(encodePacketMsgDelimited(CH_B, true, message));
  transport.feed(chunk);
  assert.equal(messages.length, 1);
  const [channel, got] = messages[0]!;
  assert.equal(channel, CH_B);
  assert.deepEqual(got, message);
  assert.equal(got.buffer, chunk.buffer, "shares the chunk's memory");
  assert.equal(got.constructor, Uint8Array, "not a Buffer, though the chunk is one");
  connection.close("x");
});

test("mconnection: one-packet and many-packet messages in turn on one channel each come whole", () => {
  const { transport, connection, messages } = make();
  const big = (fill: number) => new Uint8Array(2100).fill(fill);
  const feedWhole = (message: Uint8Array) => {
    for (let at = 0; at < message.length; at += 1024)
      transport.feed(
        encodePacketMsgDelimited(CH_A, at + 1024 >= message.length, message.subarray(at, at + 1024)),
      );
  };
  const sent = [big(1), Uint8Array.of(2), big(3), Uint8Array.of(4), Uint8Array.of(5), big(6)];
  for (const message of sent) feedWhole(message);
  assert.deepEqual(
    messages.map(([, m]) => m),
    sent,
  );
  connection.close("x");
});
