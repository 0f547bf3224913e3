// Review: BFT time. A proposed block's header time is not free: at the initial height it is the
// genesis time, after it the weighted median of the block's LastCommit (weighted by the last
// validator set), strictly after the last block's time (v0.34's validateBlock). A block that
// breaks this is invalid (L22: prevote nil), whoever proposes it; nothing else checks it (the
// ValidateBlock handler checks the header's hashes and the LastCommit's signatures only).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  blockTimeProblem,
  commitFromPrecommits,
  type HeldBlock,
  RoundStep,
} from "../../src/consensus/index.js";
import { completePartSet } from "../../src/consensus/proposal-block.js";
import { blockPartsAndId } from "../../src/types/block.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import { at, chainAfter, only, signed, TestNode } from "./consensus-harness.js";

function withTime(held: HeldBlock, time: Timestamp): HeldBlock {
  const block = { ...held.block, header: { ...held.block.header, time } };
  const { blockId, header, parts } = blockPartsAndId(block);
  return { block, blockId, parts: completePartSet({ header, parts }) };
}

/** Height 1 decided with validator 0's block, precommits at `times` from validators 0..2. */
function atHeight2(times: readonly number[]): { node: TestNode; a: HeldBlock } {
  const node = new TestNode({ own: 3 });
  node.startRound0();
  const a = node.block(0);
  node.receiveValidProposal(a, 0);
  times.forEach((ms, i) => {
    node.feed({ type: "VoteReceived", vote: node.vote(i, "precommit", 0, a.blockId, ms), from: `p${i}` });
  });
  node.nowMs = 9000;
  node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
  node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
  assert.equal(node.state.height, 2n);
  assert.equal(node.state.step, RoundStep.Propose);
  return { node, a };
}

function proposerOfRound(node: TestNode): number {
  return node.indexOf(node.state.proposer!.address);
}

describe("review: the proposal block's BFT time is checked", () => {
  it("initial height: a time other than the genesis time is invalid (prevote nil, no ValidateBlock)", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const bad = withTime(node.block(0), at(1));
    const effects = node.receiveProposal(bad, 0);
    assert.equal(only(effects, "ValidateBlock").length, 0);
    assert.deepEqual(signed(effects), ["prevote:nil"]);
  });

  it("initial height: the genesis time is fine (ValidateBlock asked, then prevote for it)", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const good = node.block(0);
    const effects = node.receiveValidProposal(good, 0);
    assert.equal(only(effects, "ValidateBlock").length, 1);
    assert.equal(signed(effects).length, 1);
    assert.notEqual(signed(effects)[0], "prevote:nil");
  });

  it("later heights: a time other than the LastCommit's weighted median is invalid", () => {
    const { node, a } = atHeight2([4000, 5000, 6000]);
    const lastCommit = commitFromPrecommits(node.state.lastCommit!, 0, a.blockId);
    const good = node.block(proposerOfRound(node), undefined, lastCommit);
    assert.deepEqual(good.block.header.time, at(5000));
    const bad = withTime(good, at(6000));
    const effects = node.receiveProposal(bad, 0);
    assert.equal(only(effects, "ValidateBlock").length, 0);
    assert.deepEqual(signed(effects), ["prevote:nil"]);
  });

  it("later heights: the median is accepted", () => {
    const { node, a } = atHeight2([4000, 5000, 6000]);
    const lastCommit = commitFromPrecommits(node.state.lastCommit!, 0, a.blockId);
    const good = node.block(proposerOfRound(node), undefined, lastCommit);
    const effects = node.receiveValidProposal(good, 0);
    assert.equal(only(effects, "ValidateBlock").length, 1);
    assert.equal(signed(effects)[0], `prevote:${Buffer.from(good.blockId.hash).toString("hex").slice(0, 8)}`);
  });

  it("later heights: a median not after the last block's time is invalid", () => {
    // Precommits stamped at the genesis time itself: the median equals the last block's time.
    const { node, a } = atHeight2([0, 0, 0]);
    const lastCommit = commitFromPrecommits(node.state.lastCommit!, 0, a.blockId);
    const same = node.block(proposerOfRound(node), undefined, lastCommit);
    assert.deepEqual(same.block.header.time, a.block.header.time);
    const effects = node.receiveProposal(same, 0);
    assert.equal(only(effects, "ValidateBlock").length, 0);
    assert.deepEqual(signed(effects), ["prevote:nil"]);
  });
});

describe("review: malformed times in a proposed block do not throw", () => {
  // Block.decode leaves a missing Timestamp undefined (the generated types say otherwise), so a
  // faulty proposer's block can carry one; the reducer runs this check on every proposal block.
  it("a header without a time is a problem, not an exception", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const good = node.block(0);
    const block = {
      ...good.block,
      header: { ...good.block.header, time: undefined as unknown as Timestamp },
    };
    assert.match(blockTimeProblem(node.state.chain, block) ?? "", /no valid time/);
  });

  it("a LastCommit signature without a time is a problem, not an exception", () => {
    const { node, a } = atHeight2([4000, 5000, 6000]);
    const lastCommit = commitFromPrecommits(node.state.lastCommit!, 0, a.blockId);
    const good = node.block(proposerOfRound(node), undefined, lastCommit);
    const broken = {
      ...lastCommit,
      signatures: lastCommit.signatures.map((sig, i) =>
        i === 1 ? { ...sig, timestamp: undefined as unknown as Timestamp } : sig,
      ),
    };
    assert.equal(blockTimeProblem(node.state.chain, good.block), undefined);
    const block = { ...good.block, lastCommit: broken };
    assert.match(blockTimeProblem(node.state.chain, block) ?? "", /no valid time/);
  });
});
