// Review: a proposal whose part-set header has more parts than a block of max_bytes can fill is
// refused when it arrives (v0.34's ErrProposalTooManyParts). Accepted, its parts would be
// collected until the set overflows max_bytes, and every peer relaying them (honest rxbft peers
// that accepted the same signed proposal) would be reported as misbehaving.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BLOCK_PART_SIZE_BYTES } from "../../src/types/part-set.js";
import { commands, TestNode } from "./consensus-harness.js";

describe("review: the proposal's part count is checked against max_bytes", () => {
  it("more parts than max_bytes allows: refused, nothing collected", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const held = node.block(0);
    const maxBytes = Number(node.state.chain.consensusParams.block.maxBytes);
    const allowed = Math.floor((maxBytes - 1) / BLOCK_PART_SIZE_BYTES) + 1;
    const proposal = node.proposal(held, 0);
    const tooMany = {
      ...proposal,
      blockId: {
        ...proposal.blockId,
        partSetHeader: { ...proposal.blockId.partSetHeader, total: allowed + 1 },
      },
    };
    const effects = node.feed({ type: "ProposalReceived", proposal: tooMany, from: "p" });
    assert.deepEqual(commands(effects), ["PeerMisbehaved"]);
    assert.equal(node.state.proposal, undefined);
    assert.equal(node.state.proposalParts, undefined);
  });

  it("exactly as many parts as max_bytes allows: accepted", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const held = node.block(0);
    const maxBytes = Number(node.state.chain.consensusParams.block.maxBytes);
    const allowed = Math.floor((maxBytes - 1) / BLOCK_PART_SIZE_BYTES) + 1;
    const proposal = node.proposal(held, 0);
    const most = {
      ...proposal,
      blockId: { ...proposal.blockId, partSetHeader: { ...proposal.blockId.partSetHeader, total: allowed } },
    };
    node.feed({ type: "ProposalReceived", proposal: most, from: "p" });
    assert.ok(node.state.proposal !== undefined);
  });
});
