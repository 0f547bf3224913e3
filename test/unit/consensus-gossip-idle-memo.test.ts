// The gossip routines' idle memo (src/consensus/gossip/idle-memo.ts): a sleep poll on the inputs of
// the last idle pass is skipped, and any input the routine reads, changed, makes it run again, so a
// skipped pass is never one that could have sent something.
import assert from "node:assert/strict";
import { test } from "node:test";
import { dataIdleAgain, votesIdleAgain } from "../../src/consensus/gossip/idle-memo.js";
import { DEFAULT_GOSSIP_CONFIG } from "../../src/consensus/gossip/index.js";
import { INITIAL_PEER_ROUND_STATE } from "../../src/consensus/gossip/peer-round-state.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import {
  Driver,
  nrs,
  ourState,
  PEER,
  partsWith,
  prevote,
  proposalAt,
  SPLIT,
  sends,
  T,
  votesOf,
} from "./consensus-gossip-fixture.js";

const SLEEP = DEFAULT_GOSSIP_CONFIG.gossipSleepMs;

test("a sleep poll on the last idle pass's inputs is skipped; another's vote we got since makes the votes pass run and send it", () => {
  const our = ourState({ height: 5n, step: RoundStep.Prevote, ownIndex: 0 });
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  d.feed({ type: "GossipMessageReceived", nowMs: T, peerId: PEER, message: nrs(5n, 0, RoundStep.Prevote) });
  const idle = d.state.peers.get(PEER)!;
  assert.ok(idle.dataIdle !== undefined && idle.votesIdle !== undefined, "both passes idle, remembered");
  const poll = d.feed({ type: "GossipTicked", nowMs: T + SLEEP });
  const after = d.state.peers.get(PEER)!;
  assert.deepEqual(sends(poll), []);
  assert.equal(after.dataIdle, idle.dataIdle, "data pass skipped");
  assert.equal(after.votesIdle, idle.votesIdle, "votes pass skipped");
  assert.equal(after.dataDueMs, T + 2 * SLEEP, "due again after the sleep, as an idle pass leaves it");
  assert.equal(after.votesDueMs, T + 2 * SLEEP);
  const other = { ...our, votes: votesOf(5n, [prevote(5n, 0, 2)]) };
  d.feed({ type: "OurStateChanged", nowMs: T + SLEEP + 1, state: other });
  const next = d.feed({ type: "GossipTicked", nowMs: T + 2 * SLEEP });
  const sent = sends(next).flatMap((m) => (m.$case === "vote" ? [m.vote.vote!.validatorIndex] : []));
  assert.deepEqual(sent, [2]);
});

test("every input the data routine reads, changed, makes it run again", () => {
  const our = ourState({ height: 5n, proposalParts: partsWith([0]) });
  const prs = { ...INITIAL_PEER_ROUND_STATE, height: 5n, round: 0, step: RoundStep.Propose };
  const last = { our, prs };
  assert.equal(dataIdleAgain(last, { ...our }, { ...prs }), true, "equal inputs in new objects");
  assert.equal(dataIdleAgain(undefined, our, prs), false);
  for (const changed of [
    { ...our, height: 6n },
    { ...our, round: 1 },
    { ...our, proposal: proposalAt(5n, 0) },
    { ...our, proposalParts: partsWith([0, 1]) },
    { ...our, validBlock: { block: {} as never, parts: partsWith([0, 1, 2]) } },
    { ...our, lockedBlock: { block: {} as never, parts: partsWith([0, 1, 2]) } },
    { ...our, proposalBlock: { block: {} as never, parts: partsWith([0, 1, 2]) } },
  ])
    assert.equal(dataIdleAgain(last, changed as typeof our, prs), false);
  for (const changed of [
    { ...prs, height: 6n },
    { ...prs, round: 1 },
    { ...prs, proposal: true },
    { ...prs, proposalHeader: SPLIT.header },
    { ...prs, proposalParts: new Uint8Array(3) },
  ])
    assert.equal(dataIdleAgain(last, our, changed), false);
});

test("every input the votes routine reads, changed, makes it run again", () => {
  const our = ourState({ height: 5n });
  const prs = { ...INITIAL_PEER_ROUND_STATE, height: 5n, round: 0, step: RoundStep.Prevote };
  const last = { our, prs };
  assert.equal(votesIdleAgain(last, { ...our }, prs), true);
  assert.equal(votesIdleAgain(last, our, { ...prs }), false, "the peer's state is compared whole");
  for (const changed of [
    { ...our, height: 6n },
    { ...our, round: 1 },
    { ...our, votes: votesOf(5n, [prevote(5n, 0, 1)]) },
    { ...our, lastCommit: votesOf(4n, []) },
    { ...our, lastCommitRound: 1 },
  ])
    assert.equal(votesIdleAgain(last, changed, prs), false);
});

test("a votes pass for a peer one height behind, while we lack the LastCommit, reads the store and is never remembered", () => {
  // Without our LastCommit the votes routine serves a peer one height behind from the stored
  // commit, whose answer comes later (StoredBlockLoaded): a remembered pass would skip that poll.
  const our = ourState({ height: 5n, step: RoundStep.Propose });
  assert.equal(our.lastCommit, undefined);
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  d.feed({ type: "GossipMessageReceived", nowMs: T, peerId: PEER, message: nrs(4n, 0, RoundStep.Commit) });
  assert.equal(d.state.peers.get(PEER)!.votesIdle, undefined);
  // A peer at our height reads no store: its idle pass is remembered.
  d.feed({ type: "GossipMessageReceived", nowMs: T, peerId: PEER, message: nrs(5n, 0, RoundStep.Propose) });
  assert.ok(d.state.peers.get(PEER)!.votesIdle !== undefined);
});
