// A mempool fold's admissions reach the gossip as one TxsAdmitted: the reducer folds them as it
// would fold them one by one (the same lists, the same holds, duplicates skipped), except that each
// idle peer is woken once and gets all of them in one send, in admission order; the reactor gathers
// the GossipTx effects of one fold into that input without letting any later input overtake them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Subject } from "rxjs";
import type { MempoolEffect } from "../../src/mempool/effect.js";
import {
  DEFAULT_MEMPOOL_GOSSIP_CONFIG,
  initialMempoolGossipState,
  type MempoolGossipInput,
  mempoolGossipReducer,
} from "../../src/mempool-gossip/index.js";
import { CHANNEL_MEMPOOL } from "../../src/p2p/channels.js";
import { encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { gossipInputsOf } from "../../streams/reactors/mempool-gossip.js";
import { steps } from "./mempool-gossip-steps.js";

const tx = (n: number) => Uint8Array.of(n);
const one = (n: number, senders: string[] = []) => ({ hash: `H${n}`, tx: tx(n), height: 0n, senders });
const added = (peerId: string): MempoolGossipInput => ({
  type: "GossipPeerAdded",
  peerId,
  peerHeight: undefined,
  pool: [],
});
const send = (peerId: string, seq: number, through: number, ns: number[]) => ({
  type: "SendGossipTx" as const,
  peerId,
  channelId: CHANNEL_MEMPOOL,
  seq,
  through,
  messages: ns.map((n) => encodeMempoolTx(tx(n))),
});
const config = { ...DEFAULT_MEMPOOL_GOSSIP_CONFIG, messagesPerSend: 64 };

test("a fold's admissions go to each idle peer in one send, in order, skipping what the peer sent", () => {
  const state = steps(
    [
      [added("A"), []],
      [added("B"), []],
      [
        { type: "TxsAdmitted", txs: [one(1), one(2, ["B"]), one(3)] },
        [send("A", 0, 2, [1, 2, 3]), send("B", 0, 2, [1, 3])],
      ],
    ],
    initialMempoolGossipState(config),
  );
  assert.deepEqual(
    [...state.txs.values()].map((t) => [t.seq, t.hash]),
    [
      [0, "H1"],
      [1, "H2"],
      [2, "H3"],
    ],
  );
});

test("a batch leaves the lists as the same txs admitted one by one would", () => {
  const batch = [one(1), one(2, ["A"]), one(1), one(3, ["B"]), one(4)];
  const hold = { ...config, relayHoldMs: 3000 };
  const start = [added("A"), added("B")].reduce(
    (s, input) => mempoolGossipReducer(s, input).state,
    initialMempoolGossipState(hold),
  );
  const together = mempoolGossipReducer(start, { type: "TxsAdmitted", txs: batch });
  let apart = start;
  const apartEffects = [];
  for (const t of batch) {
    const step = mempoolGossipReducer(apart, { type: "TxsAdmitted", txs: [t] });
    apart = step.state;
    apartEffects.push(...step.effects);
  }
  const listed = (s: typeof start) => [...s.txs.values()].map((t) => [t.seq, t.hash, t.senders]);
  const held = (s: typeof start) => [...s.held.values()].map((t) => [t.seq, t.hash, t.senders]);
  assert.deepEqual(listed(together.state), listed(apart), "the walks' list");
  assert.deepEqual(held(together.state), held(apart), "the held list");
  assert.deepEqual(listed(together.state), [
    [0, "H1", []],
    [1, "H4", []],
  ]);
  assert.deepEqual(
    held(together.state).map(([, hash]) => hash),
    ["H2", "H3"],
  );
  for (const key of ["nextSeq", "heldNextSeq", "heldCut", "releaseArmed"] as const)
    assert.deepEqual(together.state[key], apart[key], key);
  // one timer for the hold, however many txs were held
  assert.equal(together.effects.filter((e) => e.type === "ScheduleRelayRelease").length, 1);
  assert.equal(apartEffects.filter((e) => e.type === "ScheduleRelayRelease").length, 1);
  // apart, each peer got H1 alone and is busy sending; together, H1 and H4 in one send
  assert.deepEqual(
    together.effects.filter((e) => e.type === "SendGossipTx").map((e) => [e.peerId, e.messages.length]),
    [
      ["A", 2],
      ["B", 2],
    ],
  );
});

test("with no peer a batch is a no-op", () => {
  const state = initialMempoolGossipState(config);
  const t = mempoolGossipReducer(state, { type: "TxsAdmitted", txs: [one(1), one(2)] });
  assert.equal(t.state, state);
  assert.deepEqual(t.effects, []);
});

const gossipTx = (n: number, exceptPeers: string[] = []): MempoolEffect => ({
  type: "GossipTx",
  hash: `H${n}`,
  tx: tx(n),
  height: 0n,
  exceptPeers,
});

test("the reactor gathers a fold's GossipTx effects into one input, handed on in the next microtask", async () => {
  const effects = new Subject<MempoolEffect>();
  const inputs: MempoolGossipInput[] = [];
  const running = gossipInputsOf(effects).subscribe((input) => inputs.push(input));
  effects.next(gossipTx(1));
  effects.next(gossipTx(2, ["A"]));
  effects.next({ type: "TxsAvailable", height: 1n } as MempoolEffect); // not followed: no flush
  effects.next(gossipTx(3));
  assert.deepEqual(inputs, [], "nothing before the fold's work is done");
  await Promise.resolve();
  assert.deepEqual(inputs, [{ type: "TxsAdmitted", txs: [one(1), one(2, ["A"]), one(3)] }]);
  effects.next(gossipTx(4));
  await Promise.resolve();
  assert.deepEqual(inputs.at(-1), { type: "TxsAdmitted", txs: [one(4)] }, "a new batch after the flush");
  running.unsubscribe();
});

test("no input the gossip follows overtakes the admissions gathered before it", async () => {
  const effects = new Subject<MempoolEffect>();
  const inputs: MempoolGossipInput[] = [];
  const running = gossipInputsOf(effects).subscribe((input) => inputs.push(input));
  effects.next(gossipTx(1));
  effects.next(gossipTx(2));
  effects.next({ type: "StopGossipingTxs", hashes: ["H1"] });
  effects.next(gossipTx(3));
  effects.next({ type: "NoteTxSenders", notes: [{ hash: "H3", peerId: "B" }] });
  assert.deepEqual(inputs, [
    { type: "TxsAdmitted", txs: [one(1), one(2)] },
    { type: "TxsLeftPool", hashes: ["H1"] },
    { type: "TxsAdmitted", txs: [one(3)] },
    { type: "TxSendersNoted", notes: [{ hash: "H3", peerId: "B" }] },
  ]);
  await Promise.resolve();
  assert.equal(inputs.length, 4, "the microtask finds nothing left to hand on");
  effects.next(gossipTx(5));
  effects.complete();
  assert.deepEqual(inputs.at(-1), { type: "TxsAdmitted", txs: [one(5)] }, "handed on at the end too");
  running.unsubscribe();
});
