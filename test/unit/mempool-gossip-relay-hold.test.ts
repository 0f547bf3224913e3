// The mempool gossip's relay hold (MempoolGossipConfig.relayHoldMs): a tx peers sent us waits at
// least one whole hold before it is offered to our other peers, a tx leaving the pool meanwhile is
// never relayed, senders noted while it is held are skipped, and our own clients' txs go at once.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  DEFAULT_MEMPOOL_GOSSIP_CONFIG,
  initialMempoolGossipState,
  type MempoolGossipEffect,
  type MempoolGossipInput,
  type MempoolGossipState,
  mempoolGossipReducer,
} from "../../src/mempool-gossip/index.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { steps } from "./mempool-gossip-steps.js";

const HOLD_MS = 3000;
const tx = (n: number) => Uint8Array.of(n);
/** One tx admitted alone (a mempool fold that admitted one). */
const admitted = (n: number, senders: string[] = []): MempoolGossipInput => ({
  type: "TxsAdmitted",
  txs: [{ hash: `H${n}`, tx: tx(n), height: 0n, senders }],
});
const added = (peerId: string): MempoolGossipInput => ({
  type: "GossipPeerAdded",
  peerId,
  peerHeight: undefined,
  pool: [],
});
const due: MempoolGossipInput = { type: "RelayReleaseDue" };
const armed: MempoolGossipEffect = { type: "ScheduleRelayRelease", afterMs: HOLD_MS };
const finished = (peerId: string, seq: number, through = seq): MempoolGossipInput => ({
  type: "GossipTxSendFinished",
  peerId,
  seq,
  through,
  delivered: true,
  peerHeight: undefined,
});
/** One send of the txs `ns`, admission numbers seq.. in order. */
const send = (peerId: string, seq: number, ns: number[]): MempoolGossipEffect => ({
  type: "SendGossipTx",
  peerId,
  channelId: CHANNEL_MEMPOOL,
  seq,
  through: seq + ns.length - 1,
  messages: ns.map((n) => encodeMempoolTx(tx(n))),
});

function holding(): MempoolGossipState {
  const config = { ...DEFAULT_MEMPOOL_GOSSIP_CONFIG, relayHoldMs: HOLD_MS, messagesPerSend: 64 };
  let state = initialMempoolGossipState(config);
  for (const peer of ["A", "B", "C"]) state = mempoolGossipReducer(state, added(peer)).state;
  return state;
}

describe("mempool gossip relay hold", () => {
  test("our clients' txs go at once; a peer's tx waits at least one whole hold, then goes", () => {
    const s = steps(
      [
        [admitted(1), [send("A", 0, [1]), send("B", 0, [1]), send("C", 0, [1])]],
        [finished("A", 0), []],
        [finished("B", 0), []],
        [finished("C", 0), []],
        [admitted(2, ["A"]), [armed]], // held: the timer starts with the first held tx
        [admitted(3, ["B"]), []], // held too; the timer already runs
        [due, [armed]], // the first fire: neither has waited a whole hold yet
        [admitted(4, ["A"]), []],
        // the second fire: 2 and 3 go (in admission order, never back to their senders), 4 waits
        [due, [send("A", 2, [3]), send("B", 1, [2]), send("C", 1, [2, 3]), armed]],
        [finished("C", 1, 2), []],
        [due, [send("C", 3, [4])]], // 4 goes (A and B are still sending); nothing held: the timer stops
        [due, []], // a stray fire does nothing
      ],
      holding(),
    );
    assert.equal(s.releaseArmed, false);
    assert.equal(s.held.isEmpty(), true);
    // The timer starts again with the next held tx.
    assert.deepEqual(mempoolGossipReducer(s, admitted(5, ["C"])).effects, [armed]);
  });

  test("a tx that leaves the pool while held is never relayed", () => {
    steps(
      [
        [admitted(1, ["A"]), [armed]],
        [admitted(2, ["A"]), []],
        [due, [armed]],
        [{ type: "TxsLeftPool", hashes: ["H1"] }, []],
        [due, [send("B", 0, [2]), send("C", 0, [2])]],
      ],
      holding(),
    );
  });

  test("a sender noted while the tx is held is not offered it; a copy while held is not held twice", () => {
    steps(
      [
        [admitted(1, ["A"]), [armed]],
        [{ type: "TxSendersNoted", notes: [{ hash: "H1", peerId: "B" }] }, []],
        [admitted(1, ["C"]), []],
        [due, [armed]],
        [due, [send("C", 0, [1])]],
      ],
      holding(),
    );
  });

  test("the last peer leaving drops what is held", () => {
    let s = steps([[admitted(1, ["A"]), [armed]]], holding());
    for (const peer of ["A", "B", "C"])
      s = mempoolGossipReducer(s, { type: "GossipPeerRemoved", peerId: peer }).state;
    assert.equal(s.held.isEmpty(), true);
    assert.deepEqual(mempoolGossipReducer(s, due).effects, []);
  });

  test("with no hold (v0.34, the default) a peer's tx is relayed at once", () => {
    let state = initialMempoolGossipState({ ...DEFAULT_MEMPOOL_GOSSIP_CONFIG, messagesPerSend: 64 });
    for (const peer of ["A", "B", "C"]) state = mempoolGossipReducer(state, added(peer)).state;
    steps([[admitted(1, ["A"]), [send("B", 0, [1]), send("C", 0, [1])]]], state);
  });
});
