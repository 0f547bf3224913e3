// The consensus gossip reducer event by event: what each input makes it send, to whom and when,
// as v0.34's consensus reactor does (p2p-v034.md §6.1).
import assert from "node:assert/strict";
import { test } from "node:test";
import { bitsFromWire, bitsToWire } from "../../src/consensus/gossip/bit-array.js";
import {
  type ConsensusMessage,
  DEFAULT_GOSSIP_CONFIG,
  initialGossipState,
} from "../../src/consensus/gossip/index.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import {
  BLOCK_ID,
  broadcasts,
  cases,
  Driver,
  from,
  NIL,
  nrs,
  OUR_TURN,
  ourState,
  PEER,
  partsWith,
  precommit,
  prevote,
  proposalAt,
  SPLIT,
  sends,
  storedSplitBlockLoaded,
  T,
  votesOf,
} from "./consensus-gossip-fixture.js";

function connected(our = ourState({ height: 5n })): Driver {
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  return d;
}

test("our NewRoundStep: broadcast when consensus starts and on each step change, sent to a peer added later", () => {
  const d = new Driver();
  assert.deepEqual(
    d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER }),
    [],
    "nothing before we start",
  );
  const our = ourState({ height: 5n });
  const started = d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  assert.deepEqual(broadcasts(started), [
    {
      $case: "newRoundStep",
      newRoundStep: {
        height: 5n,
        round: 0,
        step: RoundStep.Propose,
        secondsSinceStartTime: 5n,
        lastCommitRound: 0,
      },
    },
  ]);
  assert.ok(
    started.some((e) => e.type === "ScheduleTick" && e.atMs === T + DEFAULT_GOSSIP_CONFIG.gossipSleepMs),
    "the peer's routines ran in this fold (nothing yet for a peer that has not said where it is) and sleep",
  );
  const same = d.feed({ type: "OurStateChanged", nowMs: T + 1, state: { ...our, proposalBlockValid: true } });
  assert.deepEqual(broadcasts(same), [], "no step change, no NewRoundStep");
  const prevoting = d.feed({
    type: "OurStateChanged",
    nowMs: T + 2,
    state: { ...our, step: RoundStep.Prevote },
  });
  assert.deepEqual(cases(broadcasts(prevoting)), ["newRoundStep"]);
  const later = d.feed({ type: "GossipPeerAdded", nowMs: T + 3, peerId: "bb".repeat(20) });
  assert.deepEqual(cases(sends(later, "bb".repeat(20))), ["newRoundStep"]);
});

test("data: our proposal, then each part the peer lacks, marked as sent, in the fold of the peer's NewRoundStep; then it sleeps peer_gossip_sleep_duration", () => {
  const our = ourState({
    height: 5n,
    ...OUR_TURN,
    proposal: proposalAt(5n, 0),
    proposalParts: partsWith([0, 1, 2]),
  });
  const d = connected(our);
  const first = from(d, nrs(5n, 0, RoundStep.Propose));
  const data = sends(first).filter((m) => m.$case !== "vote");
  assert.deepEqual(cases(data), ["proposal", "blockPart", "blockPart", "blockPart"]);
  assert.deepEqual(
    data
      .slice(1)
      .map((m) =>
        m.$case === "blockPart" ? [m.blockPart.height, m.blockPart.round, m.blockPart.part.index] : [],
      ),
    [
      [5n, 0, 0],
      [5n, 0, 1],
      [5n, 0, 2],
    ],
  );
  assert.equal(d.state.peers.get(PEER)!.dataDueMs, T + DEFAULT_GOSSIP_CONFIG.gossipSleepMs, "it sleeps");
  assert.equal(d.state.tickAtMs, T + DEFAULT_GOSSIP_CONFIG.gossipSleepMs, "a tick is asked for then");
  assert.deepEqual(sends(d.feed({ type: "GossipTicked", nowMs: T + 100 })), [], "nothing sent twice");
});

test("data: a part the peer sent us (or announced by NewValidBlock) is not sent back", () => {
  // We get the proposal and its parts after the peer sent us the proposal and part 1.
  const our = ourState({
    height: 5n,
    ...OUR_TURN,
    proposal: proposalAt(5n, 0),
    proposalParts: partsWith([0, 1, 2]),
  });
  const d = connected(ourState({ height: 5n }));
  from(d, nrs(5n, 0, RoundStep.Propose));
  from(d, { $case: "proposal", proposal: { proposal: proposalAt(5n, 0) } });
  from(d, { $case: "blockPart", blockPart: { height: 5n, round: 0, part: SPLIT.parts[1]! } });
  const parts = sends(d.feed({ type: "OurStateChanged", nowMs: T, state: our })).flatMap((m) =>
    m.$case === "blockPart" ? [String(m.blockPart.part.index)] : m.$case === "proposal" ? ["proposal"] : [],
  );
  assert.deepEqual(parts, ["0", "2"], "it sent us the proposal and part 1");

  const d2 = connected(ourState({ height: 5n }));
  from(d2, nrs(5n, 0, RoundStep.Prevote));
  from(d2, {
    $case: "newValidBlock",
    newValidBlock: {
      height: 5n,
      round: 0,
      blockPartSetHeader: SPLIT.header,
      blockParts: bitsToWire(Uint8Array.from([1, 1, 0])),
      isCommit: false,
    },
  });
  const after = sends(d2.feed({ type: "OurStateChanged", nowMs: T, state: our })).flatMap((m) =>
    m.$case === "blockPart" ? [m.blockPart.part.index] : [],
  );
  assert.deepEqual(after, [2]);
});

test("votes: the peer's round's prevotes it lacks (HasVote and votes it sent are held), then precommits", () => {
  // Others' votes reach us after the peer's announcements; they go out at the next pass.
  const votes = votesOf(5n, [prevote(5n, 0, 0), prevote(5n, 0, 1), prevote(5n, 0, 2), precommit(5n, 0, 3)]);
  const before = ourState({ height: 5n, step: RoundStep.Precommit });
  const d = connected(before);
  from(d, nrs(5n, 0, RoundStep.Prevote));
  from(d, {
    $case: "hasVote",
    hasVote: { height: 5n, round: 0, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, index: 1 },
  });
  from(d, { $case: "vote", vote: { vote: prevote(5n, 0, 2) } });
  d.feed({ type: "OurStateChanged", nowMs: T + 1, state: { ...before, votes } });
  const pass = T + DEFAULT_GOSSIP_CONFIG.gossipSleepMs;
  const sent = sends(d.feed({ type: "GossipTicked", nowMs: pass })).flatMap((m) =>
    m.$case === "vote" ? [`${m.vote.vote!.type}/${m.vote.vote!.validatorIndex}`] : [],
  );
  assert.deepEqual(sent, ["1/0", "2/3"]);
});

test("votes: a peer at a later round than ours gets none of this height's round votes", () => {
  const votes = votesOf(5n, [prevote(5n, 0, 0)]);
  const d = connected(ourState({ height: 5n, votes }));
  from(d, nrs(5n, 2, RoundStep.Prevote));
  assert.deepEqual(sends(d.feed({ type: "GossipTicked", nowMs: T })), []);
});

test("catch-up, one height behind: our last commit's precommits", () => {
  const lastCommit = votesOf(4n, [precommit(4n, 0, 0), precommit(4n, 0, 1), precommit(4n, 0, 2)]);
  const d = connected(ourState({ height: 5n, lastCommit, lastCommitRound: 0 }));
  const sent = sends(from(d, nrs(4n, 0, RoundStep.Precommit))).flatMap((m) =>
    m.$case === "vote" ? [`${m.vote.vote!.height}/${m.vote.vote!.validatorIndex}`] : [],
  );
  assert.deepEqual(sent, ["4/0", "4/1", "4/2"]);
});

test("catch-up, one height behind, holding a vote of every validator (some the other version): we still ask VoteSetMaj23 for the commit, and its VoteSetBits makes us send the committed version", () => {
  const lastCommit = votesOf(4n, [precommit(4n, 0, 0), precommit(4n, 0, 1), precommit(4n, 0, 2)]);
  // Both at height 4: the peer announces a precommit of each of 0, 1, 2 (validator 2's is the
  // other, nil, version); then we commit height 4 and move on.
  const d = connected(ourState({ height: 4n, step: RoundStep.Precommit }));
  from(d, nrs(4n, 0, RoundStep.Precommit));
  for (const index of [0, 1, 2])
    from(d, {
      $case: "hasVote",
      hasVote: { height: 4n, round: 0, type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT, index },
    });
  const moved = d.feed({
    type: "OurStateChanged",
    nowMs: T,
    state: ourState({ height: 5n, lastCommit, lastCommitRound: 0 }),
  });
  assert.deepEqual(sends(moved), [], "it seems to hold them all");
  const query = sends(d.feed({ type: "GossipTicked", nowMs: T + DEFAULT_GOSSIP_CONFIG.queryMaj23SleepMs }));
  assert.deepEqual(
    query.flatMap((m) =>
      m.$case === "voteSetMaj23"
        ? [`${m.voteSetMaj23.height}/${m.voteSetMaj23.round}/${m.voteSetMaj23.type}`]
        : [],
    ),
    ["4/0/2"],
  );
  const bits: ConsensusMessage = {
    $case: "voteSetBits",
    voteSetBits: {
      height: 4n,
      round: 0,
      type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
      blockId: BLOCK_ID,
      votes: bitsToWire(Uint8Array.from([1, 1, 0, 0])),
    },
  };
  const resent = sends(from(d, bits, T + 2001)).flatMap((m) =>
    m.$case === "vote" ? [m.vote.vote!.validatorIndex] : [],
  );
  assert.deepEqual(resent, [2], "sent in the VoteSetBits' own fold");
});

test("catch-up, further behind: the stored block is loaded, then its parts and commit are sent with the peer's height and round", () => {
  const d = connected(ourState({ height: 9n }));
  const asked = from(d, nrs(4n, 1, RoundStep.Prevote));
  assert.deepEqual(
    asked.filter((e) => e.type === "LoadStoredBlock"),
    [{ type: "LoadStoredBlock", height: 4n }],
  );
  assert.deepEqual(sends(asked), []);
  const again = d.feed({ type: "GossipTicked", nowMs: T + 100 });
  assert.equal(again.filter((e) => e.type === "LoadStoredBlock").length, 0, "one load in flight per height");
  const loaded = d.feed(storedSplitBlockLoaded(4n, T + 150));
  // The lagging peer is woken, and its routines run in the same fold.
  const sent = sends(loaded);
  assert.deepEqual(
    sent.flatMap((m) =>
      m.$case === "blockPart" ? [`${m.blockPart.height}/${m.blockPart.round}/${m.blockPart.part.index}`] : [],
    ),
    ["4/1/0", "4/1/1", "4/1/2"],
  );
  assert.deepEqual(
    sent.flatMap((m) =>
      m.$case === "vote"
        ? [`${m.vote.vote!.height}/${m.vote.vote!.round}/${m.vote.vote!.validatorIndex}`]
        : [],
    ),
    ["4/0/0", "4/0/1", "4/0/2"],
  );
  const missing = connected(ourState({ height: 9n }));
  from(missing, nrs(2n, 0, RoundStep.Prevote));
  missing.feed({ type: "GossipTicked", nowMs: T });
  missing.feed({ type: "StoredBlockMissing", nowMs: T, height: 2n });
  const retry = missing.feed({ type: "GossipTicked", nowMs: T + 100 });
  assert.equal(
    retry.filter((e) => e.type === "LoadStoredBlock").length,
    0,
    "a missing height is not asked again at once",
  );
  const later = missing.feed({ type: "GossipTicked", nowMs: T + 1100 });
  assert.equal(later.filter((e) => e.type === "LoadStoredBlock").length, 1, "but after a second");
});

test("VoteSetMaj23 is answered with our VoteSetBits for that block; a conflicting claim reports the peer", () => {
  const other = {
    hash: new Uint8Array(32).fill(3),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(4) },
  };
  const votes = votesOf(5n, [prevote(5n, 0, 0), prevote(5n, 0, 1, NIL), prevote(5n, 0, 3)]);
  const d = connected(ourState({ height: 5n, votes }));
  const claim = (blockId: typeof BLOCK_ID): ConsensusMessage => ({
    $case: "voteSetMaj23",
    voteSetMaj23: { height: 5n, round: 0, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, blockId },
  });
  const answer = sends(from(d, claim(BLOCK_ID)));
  assert.equal(answer.length, 1);
  const bits =
    answer[0]!.$case === "voteSetBits" ? bitsFromWire(answer[0]!.voteSetBits.votes, 10000) : "none";
  assert.deepEqual(bits, Uint8Array.from([1, 0, 0, 1]));
  const conflicting = from(d, claim(other));
  assert.equal(conflicting.length, 1);
  assert.equal(conflicting[0]!.type, "ReportPeer");
  assert.match((conflicting[0] as { reason: string }).reason, /two different blocks at height 5 round 0/);
  assert.deepEqual(
    from(d, {
      $case: "voteSetMaj23",
      voteSetMaj23: { height: 4n, round: 0, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, blockId: BLOCK_ID },
    }),
    [],
    "another height: no answer",
  );
});

test("queryMaj23: every peer_query_maj23_sleep_duration a VoteSetMaj23 for the +2/3 we see; VoteSetBits makes us resend what it lacks", () => {
  const votes = votesOf(5n, [prevote(5n, 0, 0), prevote(5n, 0, 1), prevote(5n, 0, 2)]);
  const d = connected(ourState({ height: 5n, step: RoundStep.Precommit, votes }));
  const first = sends(from(d, nrs(5n, 0, RoundStep.Prevote)));
  assert.equal(first.filter((m) => m.$case === "vote").length, 3);
  assert.equal(first.filter((m) => m.$case === "voteSetMaj23").length, 0, "not before the first sleep");
  const query = sends(d.feed({ type: "GossipTicked", nowMs: T + DEFAULT_GOSSIP_CONFIG.queryMaj23SleepMs }));
  assert.deepEqual(cases(query), ["voteSetMaj23"]);
  // The peer says it holds only validator 0's prevote for the block: 1 and 2 were lost.
  const bits: ConsensusMessage = {
    $case: "voteSetBits",
    voteSetBits: {
      height: 5n,
      round: 0,
      type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
      blockId: BLOCK_ID,
      votes: bitsToWire(Uint8Array.from([1, 0, 0, 0])),
    },
  };
  const resent = sends(from(d, bits, T + 2001)).flatMap((m) =>
    m.$case === "vote" ? [m.vote.vote!.validatorIndex] : [],
  );
  assert.deepEqual(resent, [1, 2]);
});

test("HasVote for each vote we add; NewValidBlock on entering the commit step", () => {
  const before = ourState({ height: 5n, step: RoundStep.Prevote, proposalParts: partsWith([0]) });
  const d = connected(before);
  const added = d.feed({
    type: "OurStateChanged",
    nowMs: T,
    state: { ...before, votes: votesOf(5n, [prevote(5n, 0, 2), precommit(5n, 0, 1)]) },
  });
  assert.deepEqual(broadcasts(added), [
    { $case: "hasVote", hasVote: { height: 5n, round: 0, type: 1, index: 2 } },
    { $case: "hasVote", hasVote: { height: 5n, round: 0, type: 2, index: 1 } },
  ]);
  const commit = d.feed({ type: "OurStateChanged", nowMs: T, state: { ...before, step: RoundStep.Commit } });
  assert.deepEqual(cases(broadcasts(commit)), ["newRoundStep", "newValidBlock"]);
  const nvb = broadcasts(commit)[1]!;
  assert.ok(nvb.$case === "newValidBlock" && nvb.newValidBlock.isCommit);
  assert.deepEqual(
    nvb.$case === "newValidBlock" ? bitsFromWire(nvb.newValidBlock.blockParts!, 1601) : 0,
    Uint8Array.from([1, 0, 0]),
  );
});

test("NewRoundStep: an older step is ignored; an impossible last_commit_round reports the peer", () => {
  const our = ourState({ height: 5n, proposal: proposalAt(5n, 0), proposalParts: partsWith([0]) });
  const d = connected(our);
  from(d, nrs(5n, 0, RoundStep.Prevote));
  from(d, nrs(5n, 0, RoundStep.Propose));
  assert.equal(d.state.peers.get(d.state.peers.keys().next().value!)!.prs.step, RoundStep.Prevote);
  const bad = from(d, nrs(6n, 0, RoundStep.Propose, -1));
  assert.equal(bad[0]?.type, "ReportPeer");
  assert.match((bad[0] as { reason: string }).reason, /above the initial height but last_commit_round is -1/);
  const initial = from(d, nrs(1n, 0, RoundStep.Propose, 0));
  assert.match(
    (initial[0] as { reason: string }).reason,
    /initial height but last_commit_round is 0, not -1/,
  );
});

test("a send that did not go out is sent again; a pass sends at most maxSendsPerPass", () => {
  const our = ourState({
    height: 5n,
    ...OUR_TURN,
    proposal: proposalAt(5n, 0),
    proposalParts: partsWith([0, 1, 2]),
  });
  const d = new Driver(initialGossipState({ ...DEFAULT_GOSSIP_CONFIG, maxSendsPerPass: 2 }));
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: our });
  const first = from(d, nrs(5n, 0, RoundStep.Propose));
  assert.deepEqual(cases(sends(first)), ["proposal", "blockPart"]);
  assert.ok(first.some((e) => e.type === "ScheduleTick" && e.atMs === T + DEFAULT_GOSSIP_CONFIG.busyRetryMs));
  const failed = sends(first)[1]!;
  d.feed({ type: "GossipSendFailed", nowMs: T + 1, peerId: PEER, message: failed });
  const next = sends(d.feed({ type: "GossipTicked", nowMs: T + 11 })).flatMap((m) =>
    m.$case === "blockPart" ? [m.blockPart.part.index] : [],
  );
  assert.deepEqual(next, [0, 1], "part 0 again, then part 1");
});

test("a removed peer is forgotten; messages from unknown peers change nothing", () => {
  const d = connected();
  d.feed({ type: "GossipPeerRemoved", nowMs: T, peerId: PEER });
  assert.equal(d.state.peers.size, 0);
  assert.deepEqual(from(d, nrs(5n, 0, RoundStep.Propose)), []);
});

test("wakes: our own vote goes out at once; others' votes wait for the next pass, when the peer's HasVote may have come", () => {
  const base = ourState({ height: 5n, step: RoundStep.Prevote, ownIndex: 0 });
  const d = connected(base);
  from(d, nrs(5n, 0, RoundStep.Prevote));
  d.feed({ type: "GossipTicked", nowMs: T });
  const others = { ...base, votes: votesOf(5n, [prevote(5n, 0, 2)]) };
  const quiet = d.feed({ type: "OurStateChanged", nowMs: T + 1, state: others });
  assert.ok(!quiet.some((e) => e.type === "ScheduleTick"), "no extra pass for another validator's vote");
  assert.deepEqual(sends(quiet), [], "and nothing sent now");
  from(
    d,
    {
      $case: "hasVote",
      hasVote: { height: 5n, round: 0, type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, index: 2 },
    },
    T + 2,
  );
  const own = { ...others, votes: votesOf(5n, [prevote(5n, 0, 2), prevote(5n, 0, 0)]) };
  const woken = d.feed({ type: "OurStateChanged", nowMs: T + 3, state: own });
  const sent = sends(woken).flatMap((m) => (m.$case === "vote" ? [m.vote.vote!.validatorIndex] : []));
  assert.deepEqual(sent, [0], "ours, in the same fold; validator 2's the peer already announced");
});

test("halted consensus: the routines stop and no tick is asked for, never a tick at the same instant again", () => {
  const d = connected(ourState({ height: 5n, step: RoundStep.Prevote }));
  from(d, nrs(5n, 0, RoundStep.Propose));
  d.feed({ type: "GossipTicked", nowMs: T });
  const halted = ourState({ height: 5n, step: RoundStep.Prevote, halted: "signing failed" });
  const onHalt = d.feed({ type: "OurStateChanged", nowMs: T + 1, state: halted });
  assert.ok(!onHalt.some((e) => e.type === "ScheduleTick"), "halting wakes no routine");
  const tick = d.feed({ type: "GossipTicked", nowMs: T + DEFAULT_GOSSIP_CONFIG.gossipSleepMs });
  assert.deepEqual(sends(tick), []);
  assert.ok(!tick.some((e) => e.type === "ScheduleTick"), "a halted node's gossip sleeps for good");
  const message = from(d, nrs(5n, 1, RoundStep.Propose), T + 200);
  assert.ok(!message.some((e) => e.type === "ScheduleTick"), "a peer's news wakes nothing either");
});

test("paused for block sync: a peer's news runs no routine and no tick is asked for; the end runs them at once", () => {
  const votes = votesOf(5n, [prevote(5n, 0, 0), prevote(5n, 0, 1)]);
  const d = connected(ourState({ height: 5n, step: RoundStep.Precommit, votes }));
  const onPause = d.feed({ type: "GossipPauseChanged", nowMs: T, paused: true });
  assert.deepEqual(sends(onPause), []);
  const news = from(d, nrs(5n, 0, RoundStep.Prevote), T + 1);
  assert.deepEqual(sends(news), [], "no routine runs while paused");
  assert.ok(!news.some((e) => e.type === "ScheduleTick"), "no tick while paused");
  const tick = d.feed({ type: "GossipTicked", nowMs: T + DEFAULT_GOSSIP_CONFIG.gossipSleepMs });
  assert.deepEqual(sends(tick), []);
  const resumed = d.feed({ type: "GossipPauseChanged", nowMs: T + 300, paused: false });
  const sent = sends(resumed).flatMap((m) =>
    m.$case === "vote" ? [`${m.vote.vote!.type}/${m.vote.vote!.validatorIndex}`] : [],
  );
  assert.deepEqual(sent, ["1/0", "1/1"], "the votes the peer lacks, in the fold that ends the pause");
  assert.ok(
    resumed.some((e) => e.type === "ScheduleTick"),
    "the routines sleep on a tick again",
  );
});
