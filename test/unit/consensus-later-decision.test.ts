// Review: +2/3 precommits for a block in a round later than ours decide at once (L49), and the
// node is then in that round (v0.34 enters it before committing): its proposer, and the proposal
// it keeps, must be that round's, or a proposal of that round from its real proposer is checked
// against the wrong key (and its honest sender reported) and the round state misreports it.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDefaultConsensusRules, RoundStep, verifyProposal } from "../../src/consensus/index.js";
import { events, TestNode } from "./consensus-harness.js";

describe("review: a decision in a later round enters that round", () => {
  it("the proposer and the proposal are those of the decision round", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0); // round 0's proposal is kept
    const b = node.block(2);
    const effects = node.votes([0, 1, 2], "precommit", 2, b.blockId);
    assert.equal(node.state.step, RoundStep.Commit);
    assert.equal(node.state.round, 2);
    assert.equal(node.state.commitRound, 2);
    const rules = createDefaultConsensusRules();
    const expected = rules.proposer(node.chain.validators!, 2);
    assert.deepEqual(node.state.proposer?.address, expected.address);
    assert.equal(node.state.proposal, undefined, "round 0's proposal is not round 2's");
    assert.ok(events(effects).includes("NewRound"));
    // A round-2 proposal signed by round 2's proposer verifies; one signed by round 0's does not.
    const key = (address: Uint8Array) =>
      node.validators.find((v) => Buffer.from(v.address).equals(Buffer.from(address)))!.pubKey.sum!;
    const wanted = key(expected.address);
    const verify = (publicKey: Uint8Array) =>
      wanted.$case === "ed25519" && Buffer.from(publicKey).equals(Buffer.from(wanted.ed25519));
    assert.equal(verifyProposal(node.state, node.proposal(b, 2), rules, verify).kind, "accept");
  });
});
