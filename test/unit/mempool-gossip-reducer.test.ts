// The mempool gossip reducer, input by input: each admitted tx offered once to each peer that did
// not send it, in admission order, one per message, one in flight per peer; peers too far behind
// and full queues wait peer_gossip_sleep; broadcast = false sends nothing.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DEFAULT_MEMPOOL_GOSSIP_CONFIG,
  initialMempoolGossipState,
  type MempoolGossipEffect,
  type MempoolGossipInput,
  mempoolGossipReducer,
  type PooledTx,
} from "../../src/mempool-gossip/index.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx, encodeMempoolTxs } from "../../src/p2p/mempool-wire.js";
import { steps } from "./mempool-gossip-steps.js";

const tx = (n: number) => Uint8Array.of(n);
/** One tx admitted alone (a mempool fold that admitted one). */
const admitted = (n: number, height = 0n, senders: string[] = []): MempoolGossipInput => ({
  type: "TxsAdmitted",
  txs: [{ hash: `H${n}`, tx: tx(n), height, senders }],
});
/** A tx as the mempool holds it (what a joining peer brings along). */
const pooled = (n: number, height = 0n, senders: string[] = []): PooledTx => ({
  hash: `H${n}`,
  tx: tx(n),
  height,
  senders,
});
const added = (peerId: string, peerHeight?: bigint, pool: PooledTx[] = []): MempoolGossipInput => ({
  type: "GossipPeerAdded",
  peerId,
  peerHeight,
  pool,
});
/** A send's answer for admission numbers seq..through (peer at height 1 in the batching tests). */
const finishedRange = (
  peerId: string,
  seq: number,
  through: number,
  delivered = true,
  peerHeight?: bigint,
): MempoolGossipInput => ({
  type: "GossipTxSendFinished",
  peerId,
  seq,
  through,
  delivered,
  peerHeight,
});
const finished = (peerId: string, seq: number, delivered = true, peerHeight?: bigint): MempoolGossipInput =>
  finishedRange(peerId, seq, seq, delivered, peerHeight);
/** One send of `messages` for admission numbers seq..through. */
const sendRange = (
  peerId: string,
  seq: number,
  through: number,
  messages: Uint8Array[],
): MempoolGossipEffect => ({
  type: "SendGossipTx",
  peerId,
  channelId: CHANNEL_MEMPOOL,
  seq,
  through,
  messages,
});
const send = (peerId: string, seq: number, n: number): MempoolGossipEffect =>
  sendRange(peerId, seq, seq, [encodeMempoolTx(tx(n))]);
const sleep = (peerId: string): MempoolGossipEffect => ({
  type: "ScheduleGossipSleep",
  peerId,
  afterMs: 100,
});

describe("mempool gossip reducer", () => {
  test("a new peer is offered the pool oldest first, one tx in flight, then waits at the end", () => {
    const s = steps([
      [added("A", undefined, [pooled(1), pooled(2)]), [send("A", 0, 1)]],
      [admitted(3), []], // A is busy: no second message in flight
      [finished("A", 0), [send("A", 1, 2)]],
      [finished("A", 1), [send("A", 2, 3)]],
      [finished("A", 2), []],
      [admitted(4), [send("A", 3, 4)]], // idle at the end: woken by the admission
    ]);
    assert.equal(s.peers.get("A")?.status, "sending");
  });

  test("each tx goes once to every peer, never back to a sender (also one noted later)", () => {
    steps([
      [added("A"), []],
      [added("B"), []],
      [added("C"), []],
      [admitted(1, 0n, ["A"]), [send("B", 0, 1), send("C", 0, 1)]],
      [finished("B", 0), []],
      [finished("C", 0), []],
      [admitted(2), [send("A", 1, 2), send("B", 1, 2), send("C", 1, 2)]],
      [{ type: "TxSendersNoted", notes: [{ hash: "H3", peerId: "B" }] }, []], // unknown tx: nothing
      [finished("A", 1), []],
      [admitted(3), [send("A", 2, 3)]],
      [{ type: "TxSendersNoted", notes: [{ hash: "H4", peerId: "B" }] }, []],
      [finished("B", 1), [send("B", 2, 3)]],
    ]);
    // B sent tx 4 to us after it was admitted: B skips it, C gets it.
    const s = steps([
      [added("B"), []],
      [added("C"), []],
      [admitted(4), [send("B", 0, 4), send("C", 0, 4)]],
      [finished("C", 0), []],
      [admitted(5), [send("C", 1, 5)]],
    ]);
    const t = mempoolGossipReducer(s, { type: "TxSendersNoted", notes: [{ hash: "H5", peerId: "B" }] });
    assert.deepEqual(t.effects, []);
    // B's walk reaches tx 5 after tx 4 is done, and skips it: it was sent by B.
    assert.deepEqual(mempoolGossipReducer(t.state, finished("B", 0)).effects, []);
    assert.equal(mempoolGossipReducer(t.state, finished("B", 0)).state.peers.get("B")?.next, 2);
  });

  test("a fold's noted senders are noted together, each as if alone", () => {
    const s = steps([
      [added("A"), []],
      [added("B"), []],
      [added("C"), []],
      [admitted(1), [send("A", 0, 1), send("B", 0, 1), send("C", 0, 1)]],
      [admitted(2), []],
    ]);
    const t = mempoolGossipReducer(s, {
      type: "TxSendersNoted",
      notes: [
        { hash: "H2", peerId: "B" },
        { hash: "H2", peerId: "C" },
        { hash: "H9", peerId: "C" },
        { hash: "H2", peerId: "B" },
      ],
    });
    assert.deepEqual(t.effects, []);
    assert.deepEqual(t.state.txs.get(1)?.senders, ["B", "C"]);
    assert.deepEqual(mempoolGossipReducer(t.state, finished("B", 0)).effects, []);
    assert.deepEqual(mempoolGossipReducer(t.state, finished("A", 0)).effects, [send("A", 1, 2)]);
  });

  test("a tx is encoded once: every peer that gets it alone is sent the very same message", () => {
    let state = initialMempoolGossipState();
    for (const peer of ["A", "B", "C"]) state = mempoolGossipReducer(state, added(peer)).state;
    const sent = mempoolGossipReducer(state, admitted(7)).effects;
    assert.equal(sent.length, 3);
    const messages = sent.map((e) => (e.type === "SendGossipTx" ? e.messages[0] : undefined));
    assert.deepEqual(messages[0], encodeMempoolTx(tx(7)));
    assert.ok(
      messages.every((m) => m === messages[0]),
      "one Uint8Array for all peers",
    );
    const kept = mempoolGossipReducer(state, admitted(7)).state.txs.first();
    assert.deepEqual(kept?.tx, tx(7));
    assert.equal(kept?.tx.buffer, kept?.message.buffer, "the tx's bytes are held once, inside its message");
  });

  test("a peer below the tx height − 1 sleeps peer_gossip_sleep and is looked at again", () => {
    steps([
      [added("A", 3n), []],
      [admitted(1, 4n), [send("A", 0, 1)]], // 3 ≥ 4 − 1: one block of lag is allowed
      [finished("A", 0, true, 3n), []],
      [admitted(2, 5n), [sleep("A")]], // 3 < 5 − 1
      [admitted(3, 5n), []], // sleeping: not woken by admissions
      [{ type: "GossipSleepElapsed", peerId: "A", peerHeight: 3n }, [sleep("A")]],
      [{ type: "GossipSleepElapsed", peerId: "A", peerHeight: 4n }, [send("A", 1, 2)]],
      [finished("A", 1, true, 4n), [send("A", 2, 3)]],
    ]);
  });

  test("a peer of unknown height is sent to", () => {
    steps([
      [added("A"), []],
      [admitted(1, 1000n), [send("A", 0, 1)]],
    ]);
  });

  test("a send the connection did not take sleeps and retries the same tx", () => {
    steps([
      [added("A"), []],
      [admitted(1), [send("A", 0, 1)]],
      [finished("A", 0, false), [sleep("A")]],
      [{ type: "GossipSleepElapsed", peerId: "A", peerHeight: undefined }, [send("A", 0, 1)]],
    ]);
  });

  test("txs that left the pool are skipped; answers that are not awaited change nothing", () => {
    const s = steps([
      [added("B"), []],
      [admitted(1), [send("B", 0, 1)]],
      [admitted(2), []],
      [admitted(3), []],
      [{ type: "TxsLeftPool", hashes: ["H1", "H2", "H9"] }, []],
      [added("A", undefined, [pooled(7)]), [send("A", 2, 3)]], // the list is kept: the pool is not read
      [finished("A", 0), []], // not the tx in flight
      [finished("X", 2), []], // unknown peer
      [{ type: "GossipSleepElapsed", peerId: "A", peerHeight: 1n }, []], // not sleeping
      [admitted(3), []], // the same tx again: already known
    ]);
    assert.equal(s.txs.size, 1);
    assert.equal(s.txs.seqOf("H3"), 2);
  });

  test("txs leaving the pool leave the state before them unchanged", () => {
    const before = steps([
      [added("A"), []],
      [admitted(1), [send("A", 0, 1)]],
      [admitted(2), []],
    ]);
    const after = mempoolGossipReducer(before, { type: "TxsLeftPool", hashes: ["H1", "H2"] }).state;
    assert.equal(after.txs.size, 0);
    assert.equal(after.txs.size, 0);
    assert.equal(before.txs.size, 2);
    assert.deepEqual(
      [...before.txs.values()].map((t) => t.hash),
      ["H1", "H2"],
    );
  });

  test("the tx in flight leaving the pool does not stall the walk", () => {
    steps([
      [added("A"), []],
      [admitted(1), [send("A", 0, 1)]],
      [admitted(2), []],
      [{ type: "TxsLeftPool", hashes: ["H1"] }, []],
      [finished("A", 0), [send("A", 1, 2)]],
    ]);
  });

  test("a removed peer is forgotten; its late answers are ignored; re-added it starts over", () => {
    const s = steps([
      [added("A"), []],
      [admitted(1), [send("A", 0, 1)]],
      [{ type: "GossipPeerRemoved", peerId: "A" }, []],
      [finished("A", 0), []],
      [{ type: "GossipPeerRemoved", peerId: "A" }, []],
      [added("A", undefined, [pooled(1)]), [send("A", 1, 1)]], // the list was dropped: renumbered
    ]);
    assert.equal(s.peers.size, 1);
  });

  test("with no peer an admission keeps nothing; the first peer brings the pool, the last one leaving drops it", () => {
    const alone = steps([
      [admitted(1), []],
      [admitted(2, 0n, ["P"]), []],
    ]);
    assert.equal(alone.txs.size, 0, "a lone node keeps no gossip list");
    assert.equal(alone.txs.size, 0);
    const s = steps(
      [
        // The pool as the mempool holds it: tx 2 came from A, so A skips it.
        [added("A", undefined, [pooled(1), pooled(2, 0n, ["A"]), pooled(3)]), [send("A", 0, 1)]],
        [finished("A", 0), [send("A", 2, 3)]],
        [added("B", undefined, [pooled(9)]), [send("B", 0, 1)]],
        [admitted(4), []],
        [{ type: "GossipPeerRemoved", peerId: "A" }, []],
      ],
      alone,
    );
    assert.deepEqual(
      [...s.txs.values()].map((t) => t.hash),
      ["H1", "H2", "H3", "H4"],
      "B's join did not read its pool",
    );
    const gone = mempoolGossipReducer(s, { type: "GossipPeerRemoved", peerId: "B" }).state;
    assert.equal(gone.txs.size, 0);
    assert.equal(gone.txs.size, 0);
    assert.equal(mempoolGossipReducer(gone, admitted(5)).state.txs.size, 0);
  });

  test("mempool.broadcast = false sends nothing", () => {
    const off = initialMempoolGossipState({ ...DEFAULT_MEMPOOL_GOSSIP_CONFIG, broadcast: false });
    const s = steps(
      [
        [admitted(1), []],
        [added("A"), []],
        [admitted(2), []],
      ],
      off,
    );
    assert.equal(s.peers.size, 0);
  });

  test("batches: up to batchTxs txs per message within the byte bound; senders' txs skipped, a lagging tx ends a batch, a failed send resends from the first", () => {
    const batched = initialMempoolGossipState({
      ...DEFAULT_MEMPOOL_GOSSIP_CONFIG,
      batchTxs: 3,
      // Room for three one-byte txs: 3 entries of 3 bytes, and the message's 2 bytes of framing.
      batchMessageBytes: 11,
    });
    const batch = (peerId: string, seq: number, through: number, ns: number[]) =>
      sendRange(peerId, seq, through, [encodeMempoolTxs(ns.map(tx))]);
    const done = (peerId: string, seq: number, through: number, delivered = true) =>
      finishedRange(peerId, seq, through, delivered, 1n);
    const pool = [
      pooled(1, 1n),
      pooled(2, 1n, ["A"]),
      pooled(3, 1n),
      pooled(4, 1n),
      pooled(5, 1n),
      pooled(6, 5n),
    ];
    steps(
      [
        // tx 2 came from A: the first message carries 1, 3, 4 (three txs, admission numbers 0-3).
        [added("A", 1n, pool), [batch("A", 0, 3, [1, 3, 4])]],
        [done("A", 0, 3), [batch("A", 4, 4, [5])]], // tx 6 (height 5) is too far ahead: the batch ends
        [done("A", 4, 4, false), [sleep("A")]],
        [{ type: "GossipSleepElapsed", peerId: "A", peerHeight: 1n }, [batch("A", 4, 4, [5])]],
        [done("A", 4, 4), [sleep("A")]], // now only tx 6 is left, and A is behind it
      ],
      batched,
    );
    // The byte bound: two-byte txs, so only two fit in 11 bytes (entries of 4 bytes each).
    const wide = (n: number): PooledTx => ({
      hash: `W${n}`,
      tx: Uint8Array.of(n, n),
      height: 0n,
      senders: [],
    });
    const t = mempoolGossipReducer(batched, added("B", undefined, [wide(1), wide(2), wide(3)]));
    assert.deepEqual(t.effects, [
      sendRange("B", 0, 1, [encodeMempoolTxs([Uint8Array.of(1, 1), Uint8Array.of(2, 2)])]),
    ]);
    assert.ok(encodeMempoolTxs([Uint8Array.of(1, 1), Uint8Array.of(2, 2)]).length <= 11);
    assert.ok(encodeMempoolTxs([1, 2, 3].map((n) => Uint8Array.of(n, n))).length > 11);
  });

  test("several messages per send: up to messagesPerSend one-tx messages in one send, each the tx's own message; senders' txs skipped, a lagging tx ends the send, a failed send resends from the first", () => {
    const grouped = initialMempoolGossipState({ ...DEFAULT_MEMPOOL_GOSSIP_CONFIG, messagesPerSend: 3 });
    const group = (peerId: string, seq: number, through: number, ns: number[]) =>
      sendRange(
        peerId,
        seq,
        through,
        ns.map((n) => encodeMempoolTx(tx(n))),
      );
    const done = (seq: number, through: number, delivered = true) =>
      finishedRange("A", seq, through, delivered, 1n);
    const pool = [
      pooled(1, 1n),
      pooled(2, 1n, ["A"]),
      pooled(3, 1n),
      pooled(4, 1n),
      pooled(5, 1n),
      pooled(6, 1n),
      pooled(7, 5n),
    ];
    steps(
      [
        // tx 2 came from A: the first send carries 1, 3, 4 (admission numbers 0-3), one message each.
        [added("A", 1n, pool), [group("A", 0, 3, [1, 3, 4])]],
        [done(0, 3), [group("A", 4, 5, [5, 6])]], // tx 7 (height 5) is too far ahead: the send ends
        [done(4, 5, false), [sleep("A")]],
        [{ type: "GossipSleepElapsed", peerId: "A", peerHeight: 1n }, [group("A", 4, 5, [5, 6])]],
        [done(4, 5), [sleep("A")]], // now only tx 7 is left, and A is behind it
      ],
      grouped,
    );
    // Each message of a send is the one encoded at the tx's admission, shared by every peer.
    let state = grouped;
    for (const peer of ["A", "B"]) state = mempoolGossipReducer(state, added(peer)).state;
    const sends = mempoolGossipReducer(state, admitted(8)).effects;
    const messages = sends.map((e) => (e.type === "SendGossipTx" ? e.messages[0] : undefined));
    assert.equal(messages.length, 2);
    assert.ok(messages[0] !== undefined && messages[0] === messages[1], "one Uint8Array for all peers");
  });

  test("txs whose hashes share their first 8 digits are still told apart", () => {
    const a = `${"AB".repeat(4)}${"1".repeat(56)}`;
    const b = `${"AB".repeat(4)}${"2".repeat(56)}`;
    let state = mempoolGossipReducer(initialMempoolGossipState(), added("A")).state;
    for (const [n, hash] of [
      [1, a],
      [2, b],
    ] as const)
      state = mempoolGossipReducer(state, {
        type: "TxsAdmitted",
        txs: [{ hash, tx: tx(n), height: 0n, senders: [] }],
      }).state;
    assert.equal(state.txs.size, 2, "the second is not taken for the first");
    state = mempoolGossipReducer(state, { type: "TxsLeftPool", hashes: [a] }).state;
    assert.deepEqual(
      [...state.txs.values()].map((t) => t.hash),
      [b],
    );
    assert.deepEqual(state.txs.first()?.hash, b);
  });
});
