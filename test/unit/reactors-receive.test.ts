// The receiving side of the mempool (0x30) and evidence (0x38) reactors over a stand-in peer hub:
// garbage and forgeries get the peer reported with a reason naming the channel; valid txs reach
// the mempool with their sender. And the
// sending side: an admitted tx goes to the peer that did not send it, not back to its sender.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Subject } from "rxjs";
import { createLogger } from "../../src/logger/index.js";
import type { MempoolEffect } from "../../src/mempool/effect.js";
import { CHANNEL_EVIDENCE, CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { TxSha256 } from "../../src/wire/hashes.js";
import type { PeerTxAnswered } from "../../streams/mempool-node.js";
import { startEvidenceGossipReactor } from "../../streams/reactors/evidence-gossip.js";
import { startMempoolGossipReactor } from "../../streams/reactors/mempool-gossip.js";
import { fakePeerLayer } from "./fake-peer-layer.js";

const logger = createLogger({ level: "none" });
const tick = () => new Promise((r) => setImmediate(r));

const fakeLayer = () => fakePeerLayer([CHANNEL_MEMPOOL, CHANNEL_EVIDENCE]);

describe("mempool reactor", () => {
  it("submits a peer's txs with the sender, reports garbage, and gossips to the others only", async () => {
    const { layer, messages, sent, reported, add } = fakeLayer();
    const effects = new Subject<MempoolEffect>();
    const submitted: { tx: string; from: string }[] = [];
    let answered: PeerTxAnswered | undefined;
    const reactor = startMempoolGossipReactor(layer, {
      mempool: {
        effect$: effects,
        hashTx: (tx) => TxSha256.of(tx),
        resentByPeer: () => false,
        answerPeerTxs: (given) => {
          answered = given;
          return () => {
            answered = undefined;
          };
        },
        submitPeerTx: (hashed, from) => {
          submitted.push({ tx: Buffer.from(hashed.tx).toString(), from });
          answered?.(from, hashed.key, { kind: "added" });
        },
        state: () => ({ txs: [] }),
      },
      config: {
        broadcast: true,
        peerGossipSleepMs: 100,
        maxTxBytes: 16,
        batchTxs: 1,
        batchMessageBytes: 20,
        messagesPerSend: 1,
        sendBytes: 20,
        relayHoldMs: 0,
      },
      logger,
      onFault: (f) => assert.fail(f.reason),
    });
    add("A");
    add("B");
    messages.next({ peerId: "A", channelId: CHANNEL_MEMPOOL, bytes: encodeMempoolTx(Buffer.from("k=v")) });
    messages.next({ peerId: "B", channelId: CHANNEL_MEMPOOL, bytes: Uint8Array.of(0x0a, 0xff) });
    messages.next({ peerId: "B", channelId: CHANNEL_MEMPOOL, bytes: encodeMempoolTx(new Uint8Array(17)) });
    await tick();
    assert.deepEqual(submitted, [{ tx: "k=v", from: "A" }]);
    assert.equal(reported.length, 2);
    assert.match(reported[0]!.reason, /^mempool channel 0x30: undecodable mempool message/);
    assert.match(
      reported[1]!.reason,
      /^mempool channel 0x30: mempool message of 21 bytes is over the channel's capacity 20/,
    );
    // the mempool admitted A's tx: it goes to B only
    effects.next({ type: "GossipTx", hash: "H", tx: Buffer.from("k=v"), height: 0n, exceptPeers: ["A"] });
    await tick();
    assert.deepEqual(
      sent.map((s) => [s.peerId, s.channelId, Buffer.from(s.bytes).toString("hex")]),
      [["B", CHANNEL_MEMPOOL, Buffer.from(encodeMempoolTx(Buffer.from("k=v"))).toString("hex")]],
    );
    assert.ok(answered, "the reactor registered its answer for peer txs");
    reactor.stop();
    assert.equal(answered, undefined, "a stopped reactor removes its answer");
  });
});

describe("evidence reactor", () => {
  it("reports an undecodable list without asking the pool", async () => {
    const { layer, messages, reported, add } = fakeLayer();
    const received: number[] = [];
    const reactor = startEvidenceGossipReactor(layer, {
      pool: {
        state: () => ({ pending: [], committed: [], conflicts: [] }),
        onChange: () => () => {},
        receive: async () => {
          received.push(1);
          return { kind: "added" as const };
        },
      },
      chainState: () => ({ consensusParams: { evidence: { maxAgeNumBlocks: 100n } } }) as never,
      verify: () => true,
      logger,
      onFault: (f) => assert.fail(f.reason),
    });
    add("A");
    messages.next({ peerId: "A", channelId: CHANNEL_EVIDENCE, bytes: Uint8Array.of(0x0a, 0x05, 0xff) });
    await tick();
    assert.equal(received.length, 0);
    assert.match(reported[0]!.reason, /^evidence channel 0x38: undecodable evidence list/);
    reactor.stop();
  });
});
