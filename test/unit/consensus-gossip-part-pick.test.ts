// The order a proposal block's parts go to a peer (part-pick.ts): each peer's own stride first, so
// the proposer's first parts differ from peer to peer and the relays have new parts to pass on.
import assert from "node:assert/strict";
import { test } from "node:test";
import { lowestMissing, pickPart, rankOf } from "../../src/consensus/gossip/part-pick.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { Driver, nrs, ourState, partsWith, proposalAt, sends, T } from "./consensus-gossip-fixture.js";

const HELD10 = Array.from({ length: 10 }, (_, i) => i);
const none = (n: number) => new Uint8Array(n);
const bits = (n: number, set: readonly number[]) => {
  const out = new Uint8Array(n);
  for (const i of set) out[i] = 1;
  return out;
};

/** Every index `pickPart` gives, in order, marking each as sent, until none is left. */
function order(held: readonly (number | undefined)[], peer: Uint8Array, rank: number, count: number) {
  const out: number[] = [];
  for (;;) {
    const i = pickPart(held, peer, { rank, count });
    if (i < 0) return out;
    out.push(i);
    peer[i] = 1;
  }
}

test("part pick: the peer's stride first, lowest first, then the rest lowest first", () => {
  assert.deepEqual(order(HELD10, none(10), 0, 3), [0, 3, 6, 9, 1, 2, 4, 5, 7, 8]);
  assert.deepEqual(order(HELD10, none(10), 1, 3), [1, 4, 7, 0, 2, 3, 5, 6, 8, 9]);
  assert.deepEqual(order(HELD10, none(10), 2, 3), [2, 5, 8, 0, 1, 3, 4, 6, 7, 9]);
});

test("part pick: one peer is lowest first, as before; a rank out of range is taken as rank 0", () => {
  assert.deepEqual(order(HELD10, none(10), 0, 1), HELD10);
  assert.deepEqual(order(HELD10, none(10), 0, 0), HELD10);
  assert.deepEqual(order(HELD10, none(10), 5, 3), order(HELD10, none(10), 0, 3));
});

test("part pick: only parts we hold and the peer lacks; -1 when none", () => {
  // A relay holding what the proposer gave it (its stride 0) and one more part.
  const held = HELD10.map((i) => (i % 3 === 0 || i === 4 ? i : undefined));
  assert.deepEqual(order(held, bits(10, [3]), 1, 3), [4, 0, 6, 9], "peer's stride (1, 4, 7) held only at 4");
  assert.equal(pickPart(held, bits(10, HELD10), { rank: 0, count: 3 }), -1);
  assert.equal(lowestMissing(held, bits(10, [0])), 3);
  assert.equal(lowestMissing([], none(0)), -1);
});

test("rank: a peer's count of smaller ids among all, whatever the map's order", () => {
  const ids = ["cc", "aa", "bb"];
  assert.deepEqual(rankOf("aa", ids), { rank: 0, count: 3 });
  assert.deepEqual(rankOf("bb", ids), { rank: 1, count: 3 });
  assert.deepEqual(rankOf("cc", ids), { rank: 2, count: 3 });
});

test("the proposer's first part differs for each of three peers (ranked by id), the rest follow lowest first", () => {
  const peers = ["cc".repeat(20), "aa".repeat(20), "bb".repeat(20)];
  const our = ourState({ height: 5n, proposal: proposalAt(5n, 0), proposalParts: partsWith([0, 1, 2]) });
  const d = new Driver();
  for (const peerId of peers) d.feed({ type: "GossipPeerAdded", nowMs: T, peerId });
  d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  const got = new Map<string, number[]>();
  for (const peerId of peers) {
    const effects = d.feed({
      type: "GossipMessageReceived",
      nowMs: T,
      peerId,
      message: nrs(5n, 0, RoundStep.Propose),
    });
    got.set(
      peerId,
      sends(effects, peerId).flatMap((m) => (m.$case === "blockPart" ? [m.blockPart.part.index] : [])),
    );
  }
  assert.deepEqual(got.get("aa".repeat(20)), [0, 1, 2]);
  assert.deepEqual(got.get("bb".repeat(20)), [1, 0, 2]);
  assert.deepEqual(got.get("cc".repeat(20)), [2, 0, 1]);
});
