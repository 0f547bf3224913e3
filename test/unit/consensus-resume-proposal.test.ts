// Review: a restart (ConsensusResumed) while our proposal's signature was requested must ask for
// the same block again. The signer may already have signed it before the crash: a new reap gives
// a different block (the mempool is not the one before the crash), which the signer refuses as
// conflicting data, and SignFailed halts consensus.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commands, only, TestNode } from "./consensus-harness.js";

describe("review: resuming with our proposal's signature outstanding", () => {
  it("asks the signer again for the same block, without a new reap", () => {
    const node = new TestNode({ own: 0 });
    node.startRound0();
    const tx = new Uint8Array([7, 7, 7]);
    const reaped = node.feed({ type: "ProposalBlockReaped", height: 1n, round: 0, txs: [tx], evidence: [] });
    const [first] = only(reaped, "SignProposal");
    assert.ok(first);
    // Crash before ProposalSigned was logged; the restart replays the log, then resumes.
    const copy = new TestNode({ own: 0, chain: node.chain });
    for (const input of node.log) copy.state = copy.reducer(copy.state, input).state;
    copy.nowMs = node.nowMs + 5;
    const effects = copy.feed({ type: "ConsensusResumed" });
    assert.equal(commands(effects).includes("ReapProposalBlock"), false, "a new reap builds another block");
    const [again] = only(effects, "SignProposal");
    assert.ok(again, "the pending signature is asked for again");
    assert.deepEqual(again.proposal.blockId, first.proposal.blockId);
    assert.equal(again.proposal.polRound, first.proposal.polRound);
    // The signer's answer is taken as before.
    const signedEffects = copy.feed({
      type: "ProposalSigned",
      proposal: { ...first.proposal, signature: new Uint8Array(64).fill(3) },
    });
    assert.equal(commands(signedEffects)[0], "BroadcastProposal");
  });
});
