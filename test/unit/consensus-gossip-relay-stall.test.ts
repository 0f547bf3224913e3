// The relay rule (gossip-data.ts): parts of a block another validator proposed go to a peer only
// once it has shown no progress on its part set for relayAfterStallMs; rxbft peers show progress
// with a NewValidBlock of their round as each part arrives (announce.ts), which adds to the bits we
// hold for them outside the commit. Our own proposal's parts go at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bitsFromWire } from "../../src/consensus/gossip/bit-array.js";
import { type ConsensusMessage, DEFAULT_GOSSIP_CONFIG } from "../../src/consensus/gossip/index.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import {
  broadcasts,
  Driver,
  from,
  newValidBlock,
  nrs,
  OUR_TURN,
  ourState,
  PEER,
  partsWith,
  proposalAt,
  sends,
  T,
  THEIR_TURN,
} from "./consensus-gossip-fixture.js";

const STALL = DEFAULT_GOSSIP_CONFIG.relayAfterStallMs;

const hint = newValidBlock;

const partIndices = (messages: readonly ConsensusMessage[]) =>
  messages.flatMap((m) => (m.$case === "blockPart" ? [m.blockPart.part.index] : []));

/** Every part sent to PEER from `fromMs` to `toMs`, ticking each millisecond a tick is asked for. */
function partsSentUntil(d: Driver, toMs: number): number[] {
  const out: number[] = [];
  while (d.state.tickAtMs !== undefined && d.state.tickAtMs <= toMs)
    out.push(...partIndices(sends(d.feed({ type: "GossipTicked", nowMs: d.state.tickAtMs }), PEER)));
  return out;
}

/** We hold all three parts of validator 3's (or, with OUR_TURN, our own) proposal; the peer sent us it. */
function holding(turn: Partial<ConsensusState>, peerSentProposal = true): { d: Driver; atOnce: number[] } {
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: ourState({ height: 5n, ...turn }) });
  from(d, nrs(5n, 0, RoundStep.Propose));
  if (peerSentProposal) from(d, { $case: "proposal", proposal: { proposal: proposalAt(5n, 0) } });
  const our = ourState({
    height: 5n,
    ...turn,
    proposal: proposalAt(5n, 0),
    proposalParts: partsWith([0, 1, 2]),
  });
  const atOnce = partIndices(sends(d.feed({ type: "OurStateChanged", nowMs: T, state: our }), PEER));
  return { d, atOnce };
}

test("another validator's parts are held while the peer shows progress, and none go once it has them all", () => {
  const { d, atOnce } = holding(THEIR_TURN);
  assert.deepEqual(atOnce, [], "held: the peer's part set became known just now");
  assert.ok(d.state.peers.get(PEER)!.dataDueMs <= T + STALL, "the routine is due by the end of the hold");
  assert.deepEqual(partsSentUntil(d, T + STALL / 2), [], "within the stall");
  from(d, hint([1, 0, 0]), T + STALL / 2);
  assert.deepEqual(partsSentUntil(d, T + STALL + STALL / 2 - 1), [], "its hint moved the hold on");
  from(d, hint([1, 1, 1]), T + STALL + STALL / 2 - 1);
  assert.deepEqual(partsSentUntil(d, T + 10 * STALL), [], "it has every part: nothing to relay, ever");
});

test("a peer that stalls gets from us, after the stall, only the parts it lacks", () => {
  const { d } = holding(THEIR_TURN);
  from(d, hint([1, 0, 0]), T + 60);
  assert.deepEqual(partsSentUntil(d, T + 60 + STALL - 1), [], "still within the stall");
  assert.equal(d.state.peers.get(PEER)!.dataDueMs, T + 60 + STALL, "due exactly when the stall ends");
  assert.deepEqual(partsSentUntil(d, T + 60 + STALL), [1, 2], "then what it lacks, at once");
});

test("a peer the proposer never reaches gets the block from a relay: our proposal to it starts the clock", () => {
  const { d, atOnce } = holding(THEIR_TURN, false);
  assert.deepEqual(atOnce, [], "the proposal went, its parts are held");
  assert.deepEqual(partsSentUntil(d, T + STALL - 1), []);
  assert.deepEqual(partsSentUntil(d, T + STALL), [0, 1, 2], "every part after the stall");
});

test("our own proposal's parts go at once, whatever the peer's progress", () => {
  assert.deepEqual(holding(OUR_TURN).atOnce, [0, 1, 2]);
  assert.deepEqual(holding(OUR_TURN, false).atOnce, [0, 1, 2]);
});

test("a NewValidBlock adds to the parts we believe a peer holds outside the commit, and replaces them at the commit", () => {
  const { d } = holding(OUR_TURN); // all three sent: the peer is believed to hold them
  assert.deepEqual(
    partIndices(sends(from(d, hint([1, 0, 0]), T + 10), PEER)),
    [],
    "parts 1 and 2 are not sent again",
  );
  assert.deepEqual(
    Array.from(d.state.peers.get(PEER)!.prs.proposalParts!),
    [1, 1, 1],
    "a hint sent before our parts arrived takes none away (they would be sent again)",
  );
  assert.deepEqual(
    partIndices(sends(from(d, hint([1, 0, 1], true), T + 20), PEER)),
    [1],
    "at the commit its bits replace ours: part 1, which it lacks after all, goes again at once",
  );
});

test("we hint each part of another validator's block we add, with our bits; not our own proposal's, nor an empty set", () => {
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  const at = (turn: Partial<ConsensusState>, parts: number[] | undefined, nowMs: number) =>
    broadcasts(
      d.feed({
        type: "OurStateChanged",
        nowMs,
        state: ourState({
          height: 5n,
          ...turn,
          proposal: proposalAt(5n, 0),
          proposalParts: parts === undefined ? undefined : partsWith(parts),
        }),
      }),
    ).filter((m) => m.$case === "newValidBlock");
  at(THEIR_TURN, undefined, T);
  assert.deepEqual(at(THEIR_TURN, [], T + 1), [], "an empty set: nothing to hint");
  const first = at(THEIR_TURN, [1], T + 2);
  assert.equal(first.length, 1);
  const nvb = first[0]!.$case === "newValidBlock" ? first[0]!.newValidBlock : undefined;
  assert.equal(nvb?.isCommit, false);
  assert.deepEqual(Array.from(bitsFromWire(nvb!.blockParts!, 3) as Uint8Array), [0, 1, 0]);
  assert.equal(at(THEIR_TURN, [0, 1], T + 3).length, 1, "one a part");

  const ours = new Driver();
  ours.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  ours.feed({ type: "OurStateChanged", nowMs: T, state: ourState({ height: 5n, ...OUR_TURN }) });
  const own = ours.feed({
    type: "OurStateChanged",
    nowMs: T + 1,
    state: ourState({
      height: 5n,
      ...OUR_TURN,
      proposal: proposalAt(5n, 0),
      proposalParts: partsWith([0, 1, 2]),
    }),
  });
  assert.deepEqual(
    broadcasts(own).filter((m) => m.$case === "newValidBlock"),
    [],
    "our own proposal: its peers learn its parts from our sends",
  );
});
