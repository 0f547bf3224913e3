// Review: the timers the reducer schedules go to one ticker that keeps only the latest
// (streams/effects/timeouts.ts, switchMap). A timeout of an earlier step of the same round must
// then never replace timeoutPrecommit once L47 started it: v0.34's ticker ignores such a request,
// and without the precommit timer a node that already used L47 ("for the first time") has no way
// left to leave the round on its own.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ConsensusEffect, RoundStep, type ScheduleTimeout } from "../../src/consensus/index.js";
import { chainAfter, NIL, only, TestNode } from "./consensus-harness.js";

/** The single ticker of the node: the latest ScheduleTimeout replaces any earlier one. */
class Ticker {
  pending: ScheduleTimeout | undefined;
  see(effects: readonly ConsensusEffect[]): void {
    for (const t of only(effects, "ScheduleTimeout")) this.pending = t;
  }
  /** Fires the pending timeout (if any) into the node, answering its SignVotes. */
  fire(node: TestNode): boolean {
    const t = this.pending;
    if (t === undefined) return false;
    this.pending = undefined;
    node.nowMs += t.durationMs;
    const effects = node.feed({ type: "TimeoutElapsed", height: t.height, round: t.round, step: t.step });
    this.see(effects);
    this.see(node.signVotes(effects));
    return true;
  }
}

function feedAll(node: TestNode, ticker: Ticker, effects: ConsensusEffect[]): void {
  ticker.see(effects);
  ticker.see(node.signVotes(effects));
}

describe("review: timeoutPrecommit is never replaced by an earlier step's timer", () => {
  it("L47 in the prevote step, then L34: the node still leaves the round", () => {
    const node = new TestNode({ own: 3 });
    const ticker = new Ticker();
    feedAll(node, ticker, node.start());
    ticker.fire(node); // timeout_commit → round 0, propose
    const held = node.block(0);
    feedAll(node, ticker, node.receiveValidProposal(held, 0)); // L22: prevote the block
    assert.equal(node.state.step, RoundStep.Prevote);
    // The others timed out on their side and precommitted nil: L47 starts timeoutPrecommit(0).
    feedAll(node, ticker, node.votes([0, 1, 2], "precommit", 0, NIL));
    assert.equal(ticker.pending?.step, RoundStep.PrecommitWait);
    // Their prevotes arrive late: +2/3 of any prevotes but no polka (L34).
    feedAll(node, ticker, node.votes([0], "prevote", 0, NIL));
    feedAll(node, ticker, node.votes([1], "prevote", 0, held.blockId));
    // No more votes come from anyone; the timers alone must take the node to round 1.
    for (let i = 0; i < 5 && node.state.round === 0; i++) if (!ticker.fire(node)) break;
    assert.equal(node.state.round, 1, "the node is stuck in round 0 without a timer");
  });

  it("L47 while round 0 waits for txs, then TxsAvailable: the propose timer does not replace it", () => {
    const node = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    const ticker = new Ticker();
    // Height 1 must be proposed anyway (proof block); use height 2 through a committed height 1.
    feedAll(node, ticker, node.start());
    ticker.fire(node);
    const held = node.block(0);
    feedAll(node, ticker, node.receiveValidProposal(held, 0));
    feedAll(node, ticker, node.votes([0, 1, 2], "prevote", 0, held.blockId));
    feedAll(node, ticker, node.votes([0, 1, 2], "precommit", 0, held.blockId));
    assert.equal(node.state.step, RoundStep.Commit);
    const chainState = chainAfter(node.state.chain, held);
    feedAll(node, ticker, node.feed({ type: "BlockExecuted", height: 1n, chainState }));
    ticker.fire(node); // timeout_commit → round 0 of height 2 waits for txs (NewRound)
    assert.equal(node.state.height, 2n);
    assert.equal(node.state.step, RoundStep.NewRound);
    feedAll(node, ticker, node.votes([0, 1, 2], "precommit", 0, NIL)); // L47
    assert.equal(ticker.pending?.step, RoundStep.PrecommitWait);
    feedAll(node, ticker, node.feed({ type: "TxsAvailable", height: 2n })); // enters propose
    for (let i = 0; i < 5 && node.state.round === 0; i++) if (!ticker.fire(node)) break;
    assert.equal(node.state.round, 1, "the node is stuck in round 0 without a timer");
  });

  it("ConsensusResumed re-issues timeoutPrecommit when L47 fired before the current step's timer", () => {
    const node = new TestNode({ own: 3 });
    const ticker = new Ticker();
    feedAll(node, ticker, node.start());
    ticker.fire(node);
    const held = node.block(0);
    feedAll(node, ticker, node.receiveValidProposal(held, 0));
    feedAll(node, ticker, node.votes([0, 1, 2], "precommit", 0, NIL)); // L47 in the prevote step
    assert.equal(node.state.step, RoundStep.Prevote);
    const resumed = node.feed({ type: "ConsensusResumed" });
    assert.deepEqual(
      only(resumed, "ScheduleTimeout").map((t) => [t.round, t.step]),
      [[0, RoundStep.PrecommitWait]],
    );
  });
});
