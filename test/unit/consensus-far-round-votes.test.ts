// Review: a vote for a round too far ahead of ours is not counted (memory stays bounded), but the
// peer that relays it did nothing wrong: validators that ran ahead (after a partition, or while
// this node restarted) vote in such rounds, and every peer gossips their votes. Reporting the
// peer as misbehaving would cut this node off from the very peers it needs to catch up.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_ROUNDS_AHEAD } from "../../src/consensus/index.js";
import { commands, NIL, TestNode } from "./consensus-harness.js";

describe("review: votes for rounds too far ahead", () => {
  it("are dropped silently, with the state unchanged", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const before = node.state;
    const far = node.vote(1, "prevote", MAX_ROUNDS_AHEAD + 5, NIL);
    const effects = node.feed({ type: "VoteReceived", vote: far, from: "honest-peer" });
    assert.deepEqual(commands(effects), []);
    assert.equal(node.state, before);
  });

  it("a vote within the bound is still counted", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    node.feed({ type: "VoteReceived", vote: node.vote(1, "prevote", MAX_ROUNDS_AHEAD, NIL), from: "p" });
    assert.ok(node.state.votes.rounds[MAX_ROUNDS_AHEAD]?.prevotes.votes[1] !== undefined);
  });
});
