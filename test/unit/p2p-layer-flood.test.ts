// The peer layer on real loopback sockets: 1,000 connections opened at once are bounded (only
// max_num_inbound_peers + unconditional sockets are kept for a handshake, the rest are closed at
// once), the ones that never say a word are cut at handshake_timeout, and a real peer connects
// afterwards: the node kept running and its slots came back.
import assert from "node:assert/strict";
import { copyFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import type { PeerLayer } from "../../streams/p2p-layer.js";
import { startNodePeerLayer } from "../../streams/p2p-transport.js";
import { freshHome, prepare } from "../integration/streams-node-helpers.js";

const homes: string[] = [];
const layers: PeerLayer[] = [];
after(async () => {
  for (const l of layers) await l.stop();
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const portOf = (laddr: string) => Number(laddr.split(":").pop());

test("1,000 connections at once are bounded, stalled ones are cut, a real peer still gets in", {
  timeout: 60_000,
}, async () => {
  const home = freshHome("rxbft-p2p-flood-");
  homes.push(home);
  const prepared = prepare(home, {
    "p2p.max_num_inbound_peers": "5",
    "p2p.handshake_timeout": "2s",
    "p2p.allow_duplicate_ip": true,
    "p2p.pex": false,
  });
  const layer = await startNodePeerLayer(prepared, "streams-test", 0n);
  layers.push(layer);
  const port = portOf(layer.listenAddr);

  const sockets: Socket[] = [];
  const closedAt: number[] = [];
  // sockets the node started a handshake on (it sent its ephemeral key): when, and when they closed
  const handshaken = new Map<Socket, { firstByte: number; closed?: number }>();
  for (let i = 0; i < 1000; i++) {
    const s = connect({ host: "127.0.0.1", port });
    s.on("error", () => {});
    s.on("data", () => {
      if (!handshaken.has(s)) handshaken.set(s, { firstByte: Date.now() });
    });
    s.on("close", () => {
      closedAt.push(Date.now());
      const h = handshaken.get(s);
      if (h) h.closed = Date.now();
    });
    sockets.push(s);
  }
  const deadline = Date.now() + 30_000;
  while (closedAt.length < 1000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  assert.equal(
    closedAt.length,
    1000,
    "every socket closed: refused at once, or cut at its handshake deadline",
  );
  // at no moment more than the 5 slots (max_num_inbound_peers + 0 unconditional) held a handshake;
  // the rest were closed unread (under load, a slot freed at its deadline may serve a later socket)
  const events = [...handshaken.values()].flatMap((h) => [
    [h.firstByte, 1],
    [h.closed!, -1],
  ]);
  events.sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
  let open = 0;
  let most = 0;
  for (const [, d] of events) {
    open += d!;
    most = Math.max(most, open);
  }
  assert.ok(handshaken.size >= 1 && most <= 5, `${most} handshakes at once (${handshaken.size} in all)`);
  assert.ok(handshaken.size < 100, `${handshaken.size} sockets handshaken: the flood was not bounded`);
  for (const h of handshaken.values()) {
    const held = h.closed! - h.firstByte;
    assert.ok(held >= 1_800, `a silent handshake was held ${held} ms, until the 2 s deadline`);
  }

  // a real node connects now
  const otherHome = freshHome("rxbft-p2p-flood-peer-");
  homes.push(otherHome);
  copyFileSync(join(home, "config/genesis.json"), join(otherHome, "config/genesis.json"));
  const other = await startNodePeerLayer(
    prepare(otherHome, {
      "p2p.persistent_peers": `${prepared.nodeId}@127.0.0.1:${port}`,
      "p2p.allow_duplicate_ip": true,
      "p2p.pex": false,
    }),
    "streams-test",
    0n,
  );
  layers.push(other);
  const until = Date.now() + 15_000;
  while (layer.view.peers().length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const peers = layer.view.peers();
  assert.equal(peers.length, 1);
  assert.equal(peers[0]!.isOutbound, false);
  assert.equal(peers[0]!.nodeInfo.network, "streams-test");
  for (const s of sockets) s.destroy();
});
