// Review: votes of the next height that come early are buffered with a bound per validator of
// the next set, so one validator (a faulty one, or a peer replaying its votes of many rounds)
// cannot fill the buffer and crowd out everyone else's early votes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chainAfter, NIL, TestNode } from "./consensus-harness.js";

describe("review: early votes of the next height are bounded per validator", () => {
  it("one validator's votes for many rounds do not crowd out the others'", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes([0, 1, 2], "precommit", 0, a.blockId);
    // Validator 0 sends prevotes and precommits of height 2 for 20 rounds.
    for (let round = 0; round < 20; round++) {
      for (const type of ["prevote", "precommit"] as const) {
        const vote = { ...node.vote(0, type, round, NIL), height: 2n };
        node.feed({ type: "VoteReceived", vote, from: "flood" });
      }
    }
    // The honest early prevotes of validators 1 and 2 for round 0.
    for (const i of [1, 2]) {
      const vote = { ...node.vote(i, "prevote", 0, NIL), height: 2n };
      node.feed({ type: "VoteReceived", vote, from: `p${i}` });
    }
    const buffered = node.state.nextHeightVotes;
    assert.ok(
      buffered.some((b) => b.vote.validatorIndex === 1) && buffered.some((b) => b.vote.validatorIndex === 2),
      "the early votes of validators 1 and 2 were dropped",
    );
    assert.ok(buffered.filter((b) => b.vote.validatorIndex === 0).length <= 4);
    node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    const prevotes = node.state.votes.rounds[0]!.prevotes;
    assert.ok(prevotes.votes[1] !== undefined && prevotes.votes[2] !== undefined);
  });
});
