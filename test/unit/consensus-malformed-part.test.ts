// Review: a block part from a peer is decoded wire data (Part.decode leaves a missing proof
// undefined) and is checked only inside the reducer. A part without a proof is bad peer data: it
// is dropped with PeerMisbehaved, never an exception out of the reducer.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Part } from "../../src/wire/generated/tendermint/types/types.js";
import { commands, TestNode } from "./consensus-harness.js";

describe("review: malformed block parts", () => {
  it("a part without a proof is dropped with PeerMisbehaved", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const held = node.block(0);
    node.feed({ type: "ProposalReceived", proposal: node.proposal(held, 0), from: "p" });
    const part = { ...held.parts.parts[0]!, proof: undefined } as unknown as Part;
    const before = node.state;
    const effects = node.feed({ type: "BlockPartReceived", height: 1n, round: 0, part, from: "bad" });
    assert.deepEqual(commands(effects), ["PeerMisbehaved"]);
    assert.equal(node.state.proposalParts, before.proposalParts);
  });
});
