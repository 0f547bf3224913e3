// upgradeConnection end to end on loopback sockets: both sides authenticate, exchange NodeInfo,
// and then carry messages on channels; each handshake failure rejects with the step's code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { CHANNEL_CONSENSUS_DATA, CHANNEL_CONSENSUS_STATE, CHANNEL_PEX } from "../../src/p2p/channels.js";
import type { P2pError } from "../../src/p2p/errors.js";
import type { PeerCloseReason, PeerConnection } from "../../src/p2p/types.js";
import { upgradeConnection } from "../../src/p2p/upgrade.js";
import { eventually, socketPair, testNode, upgradeOptions } from "./p2p-test-peers.js";

async function connectedPair() {
  const pair = await socketPair();
  const na = testNode({ moniker: "node-a" });
  const nb = testNode({ moniker: "node-b" });
  const [a, b] = await Promise.all([
    upgradeConnection(pair.a, upgradeOptions(na, true, { dialledId: nb.id })),
    upgradeConnection(pair.b, upgradeOptions(nb, false)),
  ]);
  return { a, b, na, nb, pair };
}

test("upgrade: both sides learn each other's id and NodeInfo", async () => {
  const { a, b, na, nb } = await connectedPair();
  assert.equal(a.remoteId, nb.id);
  assert.equal(b.remoteId, na.id);
  assert.equal(a.remoteNodeInfo.moniker, "node-b");
  assert.equal(b.remoteNodeInfo.moniker, "node-a");
  assert.equal(a.outbound, true);
  assert.equal(b.outbound, false);
  assert.equal(b.remoteAddress.host, "127.0.0.1");
  a.close("done");
  b.close("done");
});

const CUSTOM_A = 0x70;
const CUSTOM_B = 0x71;

test("upgrade: messages of every size cross, per channel, in order", async () => {
  // Channels outside v0.34's set carry opaque bytes (no reactor message check applies).
  const channels = [
    {
      id: CUSTOM_A,
      priority: 5,
      sendQueueCapacity: 100,
      recvBufferCapacity: 4096,
      recvMessageCapacity: 1 << 20,
    },
    {
      id: CUSTOM_B,
      priority: 1,
      sendQueueCapacity: 100,
      recvBufferCapacity: 4096,
      recvMessageCapacity: 1 << 20,
    },
  ];
  const pair = await socketPair();
  const na = testNode({ channels: Uint8Array.of(CUSTOM_A, CUSTOM_B) });
  const nb = testNode({ channels: Uint8Array.of(CUSTOM_A, CUSTOM_B) });
  const [a, b] = await Promise.all([
    upgradeConnection(pair.a, upgradeOptions(na, true, { channels })),
    upgradeConnection(pair.b, upgradeOptions(nb, false, { channels })),
  ]);
  const got: [number, Uint8Array][] = [];
  b.onMessage((ch, msg) => got.push([ch, msg]));
  const sizes = [0, 1, 200, 1023, 1024, 1025, 2500, 70_000];
  const sent: [number, Uint8Array][] = [];
  for (const size of sizes) {
    const msg = new Uint8Array(size).map((_, i) => (i * 7 + size) & 0xff);
    const channel = size % 2 === 0 ? CUSTOM_A : CUSTOM_B;
    assert.equal(a.send(channel, msg), true);
    sent.push([channel, msg]);
  }
  await eventually(() => got.length === sizes.length);
  for (const channel of [CUSTOM_A, CUSTOM_B]) {
    assert.deepEqual(
      got.filter(([c]) => c === channel),
      sent.filter(([c]) => c === channel),
    );
  }
  const status = a.status();
  assert.ok(status.sendMonitor.bytes + 0 > 70_000, `sent ${status.sendMonitor.bytes}`);
  assert.ok(b.status().recvMonitor.bytes > 70_000);
  assert.equal(status.channels.length, 2);
  a.close("done");
  b.close("done");
});

test("upgrade: close on one side reaches the other with a reason", async () => {
  const { a, b } = await connectedPair();
  const reasons: PeerCloseReason[] = [];
  b.onClose((r) => reasons.push(r));
  const ours: PeerCloseReason[] = [];
  a.onClose((r) => ours.push(r));
  a.close("test is over");
  await eventually(() => reasons.length === 1);
  assert.equal(ours[0].code, "P2P_CLOSED_BY_US");
  assert.equal(ours[0].message, "test is over");
  assert.equal(reasons[0].code, "P2P_CLOSED_BY_PEER");
  assert.equal(a.send(CHANNEL_CONSENSUS_STATE, new Uint8Array(1)), false);
});

test("upgrade: a send on a channel the peer did not advertise is dropped (trap 14)", async () => {
  const pair = await socketPair();
  const na = testNode();
  const nb = testNode({ channels: Uint8Array.of(0x20, 0x21) });
  const [a, b] = await Promise.all([
    upgradeConnection(pair.a, upgradeOptions(na, true)),
    upgradeConnection(pair.b, upgradeOptions(nb, false)),
  ]);
  assert.equal(a.send(CHANNEL_PEX, Uint8Array.of(0x0a, 0x00)), false);
  assert.equal(a.send(CHANNEL_CONSENSUS_STATE, Uint8Array.of(0x0a, 0x00)), true);
  a.close("x");
  b.close("x");
});

async function expectRejection(
  makeA: () => Promise<PeerConnection>,
  makeB: () => Promise<PeerConnection>,
  code: string,
  side: "a" | "b" | "either" = "either",
) {
  const [ra, rb] = await Promise.allSettled([makeA(), makeB()]);
  const codes: string[] = [ra, rb].map((r) => (r.status === "rejected" ? (r.reason as P2pError).code : "ok"));
  if (side === "a") assert.equal(codes[0], code, `codes ${codes}`);
  else if (side === "b") assert.equal(codes[1], code, `codes ${codes}`);
  else assert.ok(codes.includes(code), `expected ${code}, got ${codes}`);
  for (const r of [ra, rb]) if (r.status === "fulfilled") r.value.close("x");
}

test("upgrade: the dialled id must be the authenticated one", async () => {
  const pair = await socketPair();
  const na = testNode();
  const nb = testNode();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(na, true, { dialledId: "aa".repeat(20) })),
    () => upgradeConnection(pair.b, upgradeOptions(nb, false)),
    "P2P_DIALLED_ID_MISMATCH",
    "a",
  );
});

test("upgrade: an upper-case dialled id never matches (trap 17)", async () => {
  const pair = await socketPair();
  const na = testNode();
  const nb = testNode();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(na, true, { dialledId: nb.id.toUpperCase() })),
    () => upgradeConnection(pair.b, upgradeOptions(nb, false)),
    "P2P_DIALLED_ID_MISMATCH",
    "a",
  );
});

test("upgrade: another chain is incompatible", async () => {
  const pair = await socketPair();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(testNode({ network: "chain-a" }), true)),
    () => upgradeConnection(pair.b, upgradeOptions(testNode({ network: "chain-b" }), false)),
    "P2P_INCOMPATIBLE",
  );
});

test("upgrade: another block protocol is incompatible", async () => {
  const pair = await socketPair();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(testNode(), true)),
    () =>
      upgradeConnection(
        pair.b,
        upgradeOptions(testNode({ protocolVersion: { p2p: 8n, block: 10n, app: 0n } }), false),
      ),
    "P2P_INCOMPATIBLE",
  );
});

test("upgrade: no common channel is incompatible", async () => {
  const pair = await socketPair();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(testNode({ channels: Uint8Array.of(0x20) }), true)),
    () => upgradeConnection(pair.b, upgradeOptions(testNode({ channels: Uint8Array.of(0x30) }), false)),
    "P2P_INCOMPATIBLE",
  );
});

test("upgrade: a NodeInfo claiming another node's id is rejected", async () => {
  const pair = await socketPair();
  const liar = testNode();
  liar.info = { ...liar.info, defaultNodeId: "bb".repeat(20) };
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(testNode(), true)),
    () => upgradeConnection(pair.b, upgradeOptions(liar, false)),
    "P2P_ID_MISMATCH",
    "a",
  );
});

test("upgrade: a NodeInfo without moniker is invalid", async () => {
  const pair = await socketPair();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(testNode(), true)),
    () => upgradeConnection(pair.b, upgradeOptions(testNode({ moniker: "" }), false)),
    "P2P_BAD_NODE_INFO",
    "a",
  );
});

test("upgrade: connecting to ourselves is refused", async () => {
  const pair = await socketPair();
  const self = testNode();
  await expectRejection(
    () => upgradeConnection(pair.a, upgradeOptions(self, true)),
    () => upgradeConnection(pair.b, upgradeOptions(self, false)),
    "P2P_SELF",
  );
});

test("upgrade: a peer that never speaks is cut at the handshake deadline", async () => {
  const pair = await socketPair();
  const started = Date.now();
  await assert.rejects(
    upgradeConnection(pair.a, upgradeOptions(testNode(), true, { handshakeTimeoutMs: 200 })),
    (e: P2pError) => e.code === "P2P_HANDSHAKE_TIMEOUT",
  );
  assert.ok(Date.now() - started < 1500);
  assert.ok(pair.a.destroyed);
  pair.close();
});

test("upgrade: a peer that stalls after the secret handshake is cut at the NodeInfo deadline", async () => {
  const pair = await socketPair();
  const { makeSecretConnection } = await import("../../src/p2p/secret-connection/secret-connection.js");
  const staller = testNode();
  const stalled = makeSecretConnection(pair.b, staller.privateKey, 3000); // never sends NodeInfo
  await assert.rejects(
    upgradeConnection(pair.a, upgradeOptions(testNode(), true, { handshakeTimeoutMs: 300 })),
    (e: P2pError) => e.code === "P2P_HANDSHAKE_TIMEOUT" && /NodeInfo/.test(e.message),
  );
  (await stalled).close();
});

test("upgrade: a valid consensus message is delivered; garbage in a valid packet closes that peer only", async () => {
  const { a, b } = await connectedPair();
  const other = await connectedPair();
  const got: Uint8Array[] = [];
  b.onMessage((_, m) => got.push(m));
  const reasons: PeerCloseReason[] = [];
  b.onClose((r) => reasons.push(r));
  // NewRoundStep{1,1,1,1,1} from the v0.34 vectors.
  a.send(CHANNEL_CONSENSUS_STATE, Uint8Array.from(Buffer.from("0a0a08011001180120012801", "hex")));
  await eventually(() => got.length === 1);
  a.send(CHANNEL_CONSENSUS_DATA, Uint8Array.of(0xff, 0xff, 0xff));
  await eventually(() => reasons.length === 1);
  assert.equal(reasons[0].code, "P2P_BAD_MESSAGE");
  assert.match(reasons[0].message, /channel 0x21/);
  // The other connection is unaffected.
  const otherGot: Uint8Array[] = [];
  other.b.onMessage((_, m) => otherGot.push(m));
  other.a.send(CHANNEL_CONSENSUS_STATE, Uint8Array.from(Buffer.from("0a0a08011001180120012801", "hex")));
  await eventually(() => otherGot.length === 1);
  a.close("x");
  other.a.close("x");
  other.b.close("x");
});
