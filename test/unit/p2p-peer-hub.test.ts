// The channel hand-off: each channel's messages arrive as their own stream; sends go only to
// peers that advertised the channel; SendToPeer/Broadcast effects reach the connections;
// consensus votes from peers are decoded into inputs, and garbage disconnects its sender.
import assert from "node:assert/strict";
import { test } from "node:test";
import { firstValueFrom, Subject, take, toArray } from "rxjs";
import { createLogger } from "../../src/logger/index.js";
import {
  type ConsensusMessage,
  channelOf,
  decodeConsensusMessage,
  encodeConsensusMessage,
} from "../../src/p2p/consensus-wire.js";
import type { ConnectionStatus, PeerCloseReason, PeerConnection } from "../../src/p2p/types.js";
import { type PeerSendEffect, peerSendHandler } from "../../streams/effects/p2p-send.js";
import { PeerHub } from "../../streams/sources/peers.js";

/** An in-memory connection: records what is sent, delivers what the test pushes. */
class MemoryConnection implements PeerConnection {
  sent: [number, Uint8Array][] = [];
  private listeners: ((c: number, m: Uint8Array) => void)[] = [];
  readonly remoteNodeInfo;
  readonly remoteAddress = { host: "127.0.0.1", port: 1 };
  readonly outbound = true;
  constructor(
    readonly remoteId: string,
    channels: number[],
  ) {
    this.remoteNodeInfo = {
      protocolVersion: { p2p: 8n, block: 11n, app: 0n },
      defaultNodeId: remoteId,
      listenAddr: "tcp://127.0.0.1:1",
      network: "c",
      version: "0.34.24",
      channels: Uint8Array.from(channels),
      moniker: "m",
      other: { txIndex: "on", rpcAddress: "" },
    };
  }
  send(channelId: number, message: Uint8Array): boolean {
    this.sent.push([channelId, message]);
    return true;
  }
  sendAll(channelId: number, messages: readonly Uint8Array[]): boolean {
    for (const message of messages) this.send(channelId, message);
    return true;
  }
  onMessage(listener: (channelId: number, message: Uint8Array) => void): void {
    this.listeners.push(listener);
  }
  deliver(channelId: number, message: Uint8Array): void {
    for (const l of this.listeners) l(channelId, message);
  }
  onClose(_listener: (reason: PeerCloseReason) => void): void {}
  status(): ConnectionStatus {
    throw new Error("not used");
  }
  close(): void {}
}

const log = createLogger({ level: "none" });

test("each channel's messages arrive on their own stream, tagged with the peer", async () => {
  const hub = new PeerHub(log);
  const a = new MemoryConnection("a".repeat(40), [0x22, 0x30]);
  hub.add(a.remoteId, a);
  const votes = firstValueFrom(hub.channel$(0x22).pipe(take(2), toArray()));
  a.deliver(0x30, Uint8Array.of(9));
  a.deliver(0x22, Uint8Array.of(1));
  a.deliver(0x22, Uint8Array.of(2));
  assert.deepEqual(
    (await votes).map((m) => [m.peerId, m.channelId, [...m.bytes]]),
    [
      [a.remoteId, 0x22, [1]],
      [a.remoteId, 0x22, [2]],
    ],
  );
  // a removed connection's late messages are dropped
  hub.remove(a.remoteId, a);
  assert.equal(hub.get(a.remoteId), undefined);
});

test("SendToPeer and Broadcast effects go out only on channels the peer advertised", async () => {
  const hub = new PeerHub(log);
  const a = new MemoryConnection("a".repeat(40), [0x22, 0x00]);
  const b = new MemoryConnection("b".repeat(40), [0x22]);
  hub.add(a.remoteId, a);
  hub.add(b.remoteId, b);
  const effects = new Subject<PeerSendEffect>();
  const done = firstValueFrom(peerSendHandler<PeerSendEffect, never>(hub)(effects).pipe(toArray()));
  effects.next({ type: "Broadcast", channelId: 0x22, message: Uint8Array.of(7) });
  effects.next({ type: "Broadcast", channelId: 0x00, message: Uint8Array.of(8) });
  effects.next({ type: "SendToPeer", peerId: b.remoteId, channelId: 0x00, message: Uint8Array.of(9) });
  effects.next({ type: "SendToPeer", peerId: b.remoteId, channelId: 0x22, message: Uint8Array.of(10) });
  effects.complete();
  await done;
  assert.deepEqual(
    a.sent.map(([c, m]) => [c, m[0]]),
    [
      [0x22, 7],
      [0x00, 8],
    ],
  );
  assert.deepEqual(
    b.sent.map(([c, m]) => [c, m[0]]),
    [
      [0x22, 7],
      [0x22, 10],
    ],
  );
});

test("consensus broadcasts round-trip into the inputs the verification step takes; garbage is invalid", async () => {
  const vote = {
    type: 1,
    height: 5n,
    round: 0,
    blockId: {
      hash: new Uint8Array(32).fill(1),
      partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) },
    },
    timestamp: { seconds: 10n, nanos: 0 },
    validatorAddress: new Uint8Array(20).fill(3),
    validatorIndex: 0,
    signature: new Uint8Array(64).fill(4),
  };
  const message: ConsensusMessage = { $case: "vote", vote: { vote } };
  assert.equal(channelOf(message), 0x22);
  const bytes = encodeConsensusMessage(message);
  const decoded = decodeConsensusMessage(bytes, "p".repeat(40), { seconds: 1n, nanos: 0 });
  assert.equal(decoded.kind, "vote");
  if (decoded.kind === "vote") {
    assert.equal(decoded.input.vote.height, 5n);
    assert.equal(decoded.input.from, "p".repeat(40));
  }
  assert.equal(
    decodeConsensusMessage(Uint8Array.of(0xff, 0xff), "p", { seconds: 1n, nanos: 0 }).kind,
    "invalid",
  );
  assert.equal(decodeConsensusMessage(new Uint8Array(0), "p", { seconds: 1n, nanos: 0 }).kind, "invalid");
  // NewRoundStep is the consensus reactor's, not an error
  assert.deepEqual(
    decodeConsensusMessage(Buffer.from("0a0a08011001180120012801", "hex"), "p", { seconds: 1n, nanos: 0 }),
    {
      kind: "other",
      variant: "newRoundStep",
    },
  );
});

test("peers$ tells every reactor who joined (with its NodeInfo and direction) and who left", () => {
  const hub = new PeerHub(log);
  const seen: string[] = [];
  hub.peers$.subscribe((e) =>
    seen.push(
      e.type === "added"
        ? `+${e.peerId.slice(0, 1)}:${e.nodeInfo.moniker}:${e.outbound}`
        : `-${e.peerId.slice(0, 1)}`,
    ),
  );
  const a = new MemoryConnection("a".repeat(40), [0x22]);
  const b = new MemoryConnection("b".repeat(40), [0x22]);
  hub.add(a.remoteId, a);
  hub.add(b.remoteId, b);
  hub.remove(a.remoteId, b); // not a's connection: nothing happens
  hub.remove(a.remoteId, a);
  assert.deepEqual(seen, ["+a:m:true", "+b:m:true", "-a"]);
});

test("a held hub keeps joins and messages, in order, until startDelivery (reactors subscribe late)", () => {
  const hub = new PeerHub(log, undefined, true);
  const a = new MemoryConnection("a".repeat(40), [0x20]);
  hub.add(a.remoteId, a);
  a.deliver(0x20, Uint8Array.of(1));
  assert.deepEqual(hub.ids(), [], "not announced before delivery starts");
  assert.equal(hub.send(a.remoteId, 0x20, Uint8Array.of(7)), true, "sending works at once");
  const seen: string[] = [];
  hub.peers$.subscribe((e) => seen.push(`${e.type}`));
  hub.channel$(0x20).subscribe((m) => seen.push(`message ${m.bytes[0]}`));
  hub.startDelivery();
  a.deliver(0x20, Uint8Array.of(2));
  assert.deepEqual(seen, ["added", "message 1", "message 2"]);
  assert.deepEqual(hub.ids(), [a.remoteId]);
});

test("a message reaches only its own channel's subscribers; after complete() every channel stream ends", () => {
  const hub = new PeerHub(log);
  const a = new MemoryConnection("a".repeat(40), [0x20, 0x30]);
  hub.add(a.remoteId, a);
  const seen: string[] = [];
  hub.channel$(0x30).subscribe((m) => seen.push(`mempool ${m.bytes[0]}`));
  hub.channel$(0x20).subscribe((m) => seen.push(`state ${m.bytes[0]}`));
  a.deliver(0x30, Uint8Array.of(1));
  a.deliver(0x20, Uint8Array.of(2));
  a.deliver(0x21, Uint8Array.of(3)); // nobody subscribed to 0x21
  assert.deepEqual(seen, ["mempool 1", "state 2"]);
  hub.complete();
  let ended = false;
  hub.channel$(0x38).subscribe({ complete: () => (ended = true) });
  assert.equal(ended, true, "a channel first asked for after complete() ends at once");
});
