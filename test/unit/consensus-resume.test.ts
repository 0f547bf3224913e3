// Restart: the log is replayed without its effects, then ConsensusResumed issues again what must
// be outstanding (the step's timer, our pending proposal, an unexecuted decision).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ConsensusEffect, RoundStep } from "../../src/consensus/index.js";
import { commands, only, TestNode } from "./consensus-harness.js";

const OTHERS = [0, 1, 2];

/** A fresh node that folds `node`'s log (effects dropped), as a restart does. */
function restarted(node: TestNode, own: number): TestNode {
  const copy = new TestNode({ own, chain: node.chain });
  for (const input of node.log) {
    copy.state = copy.reducer(copy.state, input).state;
    copy.log.push(input);
  }
  copy.nowMs = node.nowMs;
  return copy;
}

function timers(effects: readonly ConsensusEffect[]) {
  return only(effects, "ScheduleTimeout").map((t) => [t.step, t.round, t.durationMs]);
}

describe("consensus: resuming after a restart", () => {
  it("in NewHeight: the rest of timeout_commit", () => {
    const node = new TestNode({ own: 3 });
    node.start();
    const copy = restarted(node, 3);
    copy.nowMs = 400;
    assert.deepEqual(timers(copy.feed({ type: "ConsensusResumed" })), [[RoundStep.NewHeight, 0, 600]]);
  });

  it("as proposer with the reap unanswered: the propose timer and the reap again", () => {
    const node = new TestNode({ own: 0 });
    node.startRound0();
    const copy = restarted(node, 0);
    const effects = copy.feed({ type: "ConsensusResumed" });
    assert.deepEqual(commands(effects), ["ScheduleTimeout", "ReapProposalBlock"]);
    assert.deepEqual(timers(effects), [[RoundStep.Propose, 0, 3000]]);
    // The answer to the new request builds the proposal as before.
    const reaped = copy.feed({ type: "ProposalBlockReaped", height: 1n, round: 0, txs: [], evidence: [] });
    assert.deepEqual(commands(reaped), ["SignProposal"]);
  });

  it("in PrevoteWait and PrecommitWait: the running timer again", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose });
    node.votes([0], "prevote", 0, node.block(0).blockId);
    node.votes([1, 2], "prevote", 0, node.block(1).blockId);
    assert.equal(node.state.step, RoundStep.PrevoteWait);
    assert.deepEqual(timers(restarted(node, 3).feed({ type: "ConsensusResumed" })), [
      [RoundStep.PrevoteWait, 0, 1000],
    ]);
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrevoteWait });
    node.votes([0, 1], "precommit", 0, node.block(0).blockId);
    node.votes([2], "precommit", 0, node.block(1).blockId);
    assert.equal(node.state.step, RoundStep.PrecommitWait);
    assert.deepEqual(timers(restarted(node, 3).feed({ type: "ConsensusResumed" })), [
      [RoundStep.PrecommitWait, 0, 1000],
    ]);
  });

  it("in the commit step with the decision unexecuted: CommitBlock again", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    const decided = node.votes(OTHERS, "precommit", 0, a.blockId);
    assert.equal(only(decided, "CommitBlock").length, 1);
    const effects = restarted(node, 3).feed({ type: "ConsensusResumed" });
    const [again] = only(effects, "CommitBlock");
    assert.deepEqual(again, only(decided, "CommitBlock")[0]);
  });
});
