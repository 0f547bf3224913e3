// Which of a peer's gossip routines each change wakes (src/consensus/gossip/wake.ts): a routine is
// run at once only on a change that can give it something to send, so a routine left asleep keeps
// the due time of its last pass. Read off the reducer's state: a routine that ran has its next due
// time `now + peer_gossip_sleep_duration`; one that did not still has the earlier one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bitsToWire } from "../../src/consensus/gossip/bit-array.js";
import { DEFAULT_GOSSIP_CONFIG } from "../../src/consensus/gossip/index.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import {
  BLOCK_ID,
  Driver,
  from,
  newValidBlock,
  nrs,
  ourState,
  PEER,
  partsWith,
  prevote,
  proposalAt,
  T,
  votesOf,
} from "./consensus-gossip-fixture.js";

const SLEEP = DEFAULT_GOSSIP_CONFIG.gossipSleepMs;

/** Which routines ran at `nowMs` (their due time moved to nowMs + sleep). */
function ran(d: Driver, nowMs: number): { data: boolean; votes: boolean } {
  const p = d.state.peers.get(PEER)!;
  return { data: p.dataDueMs === nowMs + SLEEP, votes: p.votesDueMs === nowMs + SLEEP };
}

/** A peer at our height 5, round 0, step Prevote, both routines run at T and asleep till T + sleep. */
function settled(our = ourState({ height: 5n, step: RoundStep.Prevote, ownIndex: 0 })): Driver {
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  from(d, nrs(5n, 0, RoundStep.Prevote), T);
  const p = d.state.peers.get(PEER)!;
  assert.equal(p.dataDueMs, T + SLEEP);
  assert.equal(p.votesDueMs, T + SLEEP);
  return d;
}

test("our step alone wakes neither routine (its NewRoundStep goes out as an announcement)", () => {
  const our = ourState({ height: 5n, step: RoundStep.Prevote, ownIndex: 0 });
  const d = settled(our);
  d.feed({ type: "OurStateChanged", nowMs: T + 10, state: { ...our, step: RoundStep.PrevoteWait } });
  assert.deepEqual(ran(d, T + 10), { data: false, votes: false });
});

test("a part we newly hold wakes the data routine only; a vote of our own, the votes routine only", () => {
  const our = ourState({ height: 5n, step: RoundStep.Prevote, ownIndex: 0, proposalParts: partsWith([0]) });
  const d = settled(our);
  const withPart = { ...our, proposalParts: partsWith([0, 1]) };
  d.feed({ type: "OurStateChanged", nowMs: T + 10, state: withPart });
  assert.deepEqual(ran(d, T + 10), { data: true, votes: false });
  const mine = prevote(5n, 0, 0);
  const withVote = { ...withPart, votes: votesOf(5n, [mine]) };
  d.feed({ type: "OurStateChanged", nowMs: T + 20, state: withVote });
  assert.deepEqual(ran(d, T + 20), { data: false, votes: true });
  const otherVote = { ...withVote, votes: votesOf(5n, [mine, prevote(5n, 0, 2)]) };
  d.feed({ type: "OurStateChanged", nowMs: T + 30, state: otherVote });
  assert.deepEqual(ran(d, T + 30), { data: false, votes: false }, "another's vote waits for the poll");
});

test("a peer's step within its round wakes neither routine; its new round wakes both", () => {
  const d = settled();
  from(d, nrs(5n, 0, RoundStep.PrecommitWait), T + 10);
  assert.deepEqual(ran(d, T + 10), { data: false, votes: false });
  from(d, nrs(5n, 1, RoundStep.Propose), T + 20);
  assert.deepEqual(ran(d, T + 20), { data: true, votes: true });
});

test("a peer's proposal wakes the data routine; a proposal with a POL round, the votes routine too", () => {
  const d = settled();
  from(d, { $case: "proposal", proposal: { proposal: proposalAt(5n, 0) } }, T + 10);
  assert.deepEqual(ran(d, T + 10), { data: true, votes: false });
  const d2 = settled();
  from(d2, nrs(5n, 1, RoundStep.Propose), T + 5);
  from(d2, { $case: "proposal", proposal: { proposal: proposalAt(5n, 1, 0) } }, T + 10);
  assert.deepEqual(ran(d2, T + 10), { data: true, votes: true });
});

test("NewValidBlock: the parts we knew of, again, wake nothing; at the commit, a part we thought it held and it lacks wakes the data routine", () => {
  const d = settled();
  const nvb = (bits: number[], nowMs: number, isCommit = false) =>
    from(d, newValidBlock(bits, isCommit), nowMs);
  nvb([1, 1, 0], T + 10);
  assert.deepEqual(ran(d, T + 10), { data: true, votes: false }, "a part set newly known");
  nvb([1, 1, 1], T + 20);
  assert.deepEqual(ran(d, T + 20), { data: false, votes: false }, "only more parts held");
  nvb([1, 0, 1], T + 30);
  assert.deepEqual(
    ran(d, T + 30),
    { data: false, votes: false },
    "outside the commit a NewValidBlock only adds parts (a hint sent as parts arrive)",
  );
  nvb([1, 0, 1], T + 40, true);
  assert.deepEqual(ran(d, T + 40), { data: true, votes: false }, "at the commit: part 1 lacking after all");
});

test("VoteSetBits wakes the votes routine only where it clears a bit", () => {
  const votes = votesOf(5n, [prevote(5n, 0, 0), prevote(5n, 0, 1)]);
  const our = ourState({ height: 5n, step: RoundStep.Prevote, ownIndex: 0, votes });
  const d = settled(our);
  const bits = (held: number[], nowMs: number) =>
    from(
      d,
      {
        $case: "voteSetBits",
        voteSetBits: {
          height: 5n,
          round: 0,
          type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
          blockId: BLOCK_ID,
          votes: bitsToWire(Uint8Array.from(held)),
        },
      },
      nowMs,
    );
  bits([1, 1, 0, 0], T + 10);
  assert.deepEqual(ran(d, T + 10), { data: false, votes: false }, "bits set only");
  bits([1, 0, 0, 0], T + 20);
  assert.deepEqual(ran(d, T + 20), { data: false, votes: true }, "validator 1's bit cleared");
});
