// The test-only switch testOnlyBreakRule: "ignore-lock" must really break safety, or a simulation
// could not show that it catches it. Three honest reducers and a scripted Byzantine validator 3
// (power 10 each) replay the classic attack: validator 0 commits A in round 0 while 1 is locked on
// A and 2 never saw A; in round 2, 2 proposes B. With the lock respected, 1 prevotes nil and B
// cannot gather a polka; with the lock ignored, 1 and 2 commit B: two blocks at one height.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ConsensusEffect, type HeldBlock, RoundStep } from "../../src/consensus/index.js";
import { NIL, only, signed, TestNode } from "./consensus-harness.js";

/** Feeds our own signatures back until nothing is left to sign; returns every effect. */
function settle(node: TestNode, effects: ConsensusEffect[]): ConsensusEffect[] {
  const all = [...effects];
  let pending = effects;
  while (only(pending, "SignVote").length > 0) {
    pending = node.signVotes(pending);
    all.push(...pending);
  }
  return all;
}

function hex(held: HeldBlock | { blockId: { hash: Uint8Array } }): string {
  return Buffer.from(held.blockId.hash).toString("hex");
}

function attack(breakRule: boolean): { committedA: string; others: string[] } {
  const config = breakRule ? { testOnlyBreakRule: "ignore-lock" as const } : {};
  const [n0, n1, n2] = [0, 1, 2].map((own) => new TestNode({ own, config }));
  const n = [n0!, n1!, n2!];
  for (const node of n) node.startRound0();
  const commits: string[] = [];
  const feed = (node: TestNode, effects: ConsensusEffect[]) => {
    const all = settle(node, effects);
    for (const c of only(all, "CommitBlock")) if (node !== n0) commits.push(hex(c));
    return all;
  };
  const deliver = (
    node: TestNode,
    from: number,
    type: "prevote" | "precommit",
    round: number,
    id: HeldBlock | undefined,
  ) => feed(node, node.votes([from], type, round, id?.blockId ?? NIL));
  const timeout = (node: TestNode, round: number, step: RoundStep) =>
    feed(node, node.feed({ type: "TimeoutElapsed", height: 1n, round, step }));

  // Round 0: validator 0 proposes A; 1 gets it, 2 does not.
  const reaped = n0!.feed({
    type: "ProposalBlockReaped",
    height: 1n,
    round: 0,
    txs: [new Uint8Array([0xa])],
    evidence: [],
  });
  const [signA] = only(reaped, "SignProposal");
  feed(n0!, n0!.feed({ type: "ProposalSigned", proposal: signA!.proposal }));
  const A = n0!.state.proposalBlock!;
  feed(n1!, n1!.receiveValidProposal(A, 0));
  timeout(n2!, 0, RoundStep.Propose); // 2 prevotes nil
  // Prevotes: 0 and 1 see the polka for A (with 3's prevote) and lock; 2 sees it without the block.
  for (const [node, from, id] of [
    [n0, 1, A],
    [n0, 3, A],
    [n1, 0, A],
    [n1, 3, A],
    [n2, 0, A],
    [n2, 1, A],
    [n2, 3, A],
  ] as const) {
    deliver(node!, from, "prevote", 0, id);
  }
  assert.equal(n1!.state.lockedRound, 0, "validator 1 is locked on A");
  timeout(n2!, 0, RoundStep.PrevoteWait); // 2 precommits nil
  // Precommits: 3 sends its precommit for A to 0 only: 0 commits A.
  deliver(n0!, 1, "precommit", 0, A);
  const committed = deliver(n0!, 3, "precommit", 0, A);
  assert.equal(only(committed, "CommitBlock").length, 1, "validator 0 commits A");
  deliver(n1!, 0, "precommit", 0, A);
  deliver(n1!, 2, "precommit", 0, undefined);
  deliver(n2!, 0, "precommit", 0, A);
  deliver(n2!, 1, "precommit", 0, A);
  timeout(n1!, 0, RoundStep.PrecommitWait);
  timeout(n2!, 0, RoundStep.PrecommitWait);

  // Round 1: 1 re-proposes A (POL round 0); its proposal never reaches 2; 3 votes nil.
  assert.equal(n1!.state.round, 1);
  timeout(n2!, 1, RoundStep.Propose);
  deliver(n1!, 2, "prevote", 1, undefined);
  deliver(n1!, 3, "prevote", 1, undefined);
  deliver(n2!, 1, "prevote", 1, A);
  deliver(n2!, 3, "prevote", 1, undefined);
  timeout(n1!, 1, RoundStep.PrevoteWait);
  timeout(n2!, 1, RoundStep.PrevoteWait);
  for (const [node, other] of [
    [n1, 2],
    [n2, 1],
  ] as const) {
    deliver(node!, other, "precommit", 1, undefined);
    deliver(node!, 3, "precommit", 1, undefined);
    timeout(node!, 1, RoundStep.PrecommitWait);
  }

  // Round 2: 2 (never had A) proposes a new block B; 3 prevotes and precommits B everywhere.
  assert.equal(n2!.state.round, 2);
  const [signB] = only(
    n2!.feed({
      type: "ProposalBlockReaped",
      height: 1n,
      round: 2,
      txs: [new Uint8Array([0xb])],
      evidence: [],
    }),
    "SignProposal",
  );
  feed(n2!, n2!.feed({ type: "ProposalSigned", proposal: signB!.proposal }));
  const B = n2!.state.proposalBlock!;
  const prevote1 = feed(n1!, n1!.receiveValidProposal(B, 2));
  const oneVotedB = signed(prevote1)[0] === `prevote:${hex(B).slice(0, 8)}`;
  assert.equal(oneVotedB, breakRule, "the locked validator prevotes B only when the lock is ignored");
  deliver(n1!, 2, "prevote", 2, B);
  deliver(n1!, 3, "prevote", 2, B);
  deliver(n2!, 1, "prevote", 2, oneVotedB ? B : undefined);
  deliver(n2!, 3, "prevote", 2, B);
  // Each honest precommit of round 2 reaches the other honest validator; 3 precommits B.
  const precommitOf = (node: TestNode) => node.state.votes.rounds[2]?.precommits.votes[node.state.ownIndex];
  for (const [node, other] of [
    [n1!, n2!],
    [n2!, n1!],
  ] as const) {
    const theirs = precommitOf(other);
    if (theirs !== undefined) feed(node, node.feed({ type: "VoteReceived", vote: theirs, from: "peer" }));
    deliver(node, 3, "precommit", 2, B);
  }
  return { committedA: hex(A), others: commits };
}

describe("consensus: testOnlyBreakRule ignore-lock", () => {
  it("with the lock respected, the locked validator prevotes nil and B is never committed", () => {
    const { committedA, others } = attack(false);
    assert.ok(others.every((hash) => hash === committedA));
    assert.deepEqual(others, []);
  });

  it("with the lock ignored, two honest validators commit B after another committed A", () => {
    const { committedA, others } = attack(true);
    assert.ok(others.length >= 1);
    assert.ok(
      others.some((hash) => hash !== committedA),
      "a fork: the simulation's safety check must catch this",
    );
  });
});
