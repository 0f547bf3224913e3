// Every upon-rule of Algorithm 1 and every timeout, driven input by input with the expected
// effects and state. Height 1 of a 4-validator chain (power 10 each); the proposer of round r is
// validator r mod 4. The node under test is validator 3 unless said otherwise.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDefaultConsensusRules, RoundStep } from "../../src/consensus/index.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import {
  addressOf,
  chainAfter,
  commands,
  events,
  genesisChain,
  NIL,
  only,
  short,
  signed,
  TestNode,
} from "./consensus-harness.js";

const OTHERS = [0, 1, 2];

function atPropose(own = 3): TestNode {
  const node = new TestNode({ own });
  node.startRound0();
  return node;
}

describe("consensus: L11 StartRound and the propose step", () => {
  it("schedules round 0 after timeout_commit, then starts it with the propose timeout", () => {
    const node = new TestNode({ own: 3 });
    const started = node.start();
    assert.deepEqual(only(started, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 1n, round: 0, step: RoundStep.NewHeight, durationMs: 1000 },
    ]);
    assert.equal(node.state.step, RoundStep.NewHeight);
    node.nowMs = 1000;
    const round0 = node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.NewHeight });
    assert.deepEqual(events(round0), ["NewRound", "NewRoundStep"]);
    assert.deepEqual(only(round0, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 1n, round: 0, step: RoundStep.Propose, durationMs: 3000 },
    ]);
    assert.equal(
      commands(round0).includes("ReapProposalBlock"),
      false,
      "validator 3 is not the proposer of round 0",
    );
    assert.equal(node.state.step, RoundStep.Propose);
  });

  it("L14–L19 as proposer: reap, build, sign, then broadcast the proposal and its parts", () => {
    const node = new TestNode({ own: 0 });
    node.start();
    const round0 = node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.NewHeight });
    const [reap] = only(round0, "ReapProposalBlock");
    assert.deepEqual(reap, {
      type: "ReapProposalBlock",
      height: 1n,
      round: 0,
      maxBytes: 22020096n,
      maxGas: -1n,
      maxEvidenceBytes: 1048576n,
      validatorCount: 4,
    });
    const tx = new Uint8Array([5, 5, 5]);
    const reaped = node.feed({ type: "ProposalBlockReaped", height: 1n, round: 0, txs: [tx], evidence: [] });
    const [sign] = only(reaped, "SignProposal");
    assert.ok(sign);
    assert.equal(sign.proposal.polRound, -1);
    assert.equal(sign.proposal.round, 0);
    assert.equal(sign.proposal.blockId.hash.length, 32);
    const signedEffects = node.feed({
      type: "ProposalSigned",
      proposal: { ...sign.proposal, signature: new Uint8Array(64) },
    });
    // Broadcast, then L22 fires at once on our own (valid) block: prevote for it.
    assert.deepEqual(commands(signedEffects), ["BroadcastProposal", "BroadcastBlockPart", "SignVote"]);
    assert.deepEqual(signed(signedEffects), [
      `prevote:${Buffer.from(sign.proposal.blockId.hash).toString("hex").slice(0, 8)}`,
    ]);
    const block = node.state.proposalBlock!.block;
    assert.deepEqual(block.data.txs, [tx]);
    // Initial height: the block time is the genesis time, the last commit is empty.
    assert.deepEqual(block.header.time, node.chain.lastBlockTime);
    assert.equal(block.lastCommit!.signatures.length, 0);
    assert.deepEqual(block.header.proposerAddress, node.validators[0]!.address);
  });

  it("answers that arrive late (another round) are ignored", () => {
    const node = new TestNode({ own: 0 });
    node.startRound0();
    const stale = node.feed({ type: "ProposalBlockReaped", height: 1n, round: 1, txs: [], evidence: [] });
    assert.deepEqual(stale, []);
  });
});

describe("consensus: L22 and L28, the prevote on a proposal", () => {
  it("L22: prevotes a complete, valid proposal once its validation answer is in", () => {
    const node = atPropose();
    const held = node.block(0);
    const received = node.receiveProposal(held, 0);
    assert.deepEqual(commands(received), ["ValidateBlock"]);
    assert.ok(events(received).includes("CompleteProposal"));
    assert.equal(node.state.step, RoundStep.Propose, "waits for the validity answer");
    const validated = node.feed({ type: "BlockValidated", height: 1n, blockHash: held.blockId.hash });
    assert.deepEqual(signed(validated), [`prevote:${short(held)}`]);
    assert.equal(node.state.step, RoundStep.Prevote);
  });

  it("L22: prevotes nil for an invalid block", () => {
    const node = atPropose();
    const held = node.block(0);
    node.receiveProposal(held, 0);
    const validated = node.feed({
      type: "BlockValidated",
      height: 1n,
      blockHash: held.blockId.hash,
      error: "bad app hash",
    });
    assert.deepEqual(signed(validated), ["prevote:nil"]);
  });

  it("L22: waits for every part before deciding", () => {
    const node = atPropose();
    const held = node.block(0, [new Uint8Array(70_000).fill(1)]);
    assert.equal(held.parts.header.total, 2);
    const proposalOnly = node.feed({ type: "ProposalReceived", proposal: node.proposal(held, 0), from: "p" });
    assert.deepEqual(proposalOnly, []);
    const first = node.feed({
      type: "BlockPartReceived",
      height: 1n,
      round: 0,
      part: held.parts.parts[1]!,
      from: "p",
    });
    assert.deepEqual(first, []);
    const second = node.feed({
      type: "BlockPartReceived",
      height: 1n,
      round: 0,
      part: held.parts.parts[0]!,
      from: "p",
    });
    assert.deepEqual(commands(second), ["ValidateBlock"]);
  });

  it("L22: locked on another block, prevotes nil; with testOnlyBreakRule ignore-lock, prevotes the proposal", () => {
    for (const [breakRule, expected] of [
      [undefined, "nil"],
      ["ignore-lock", "proposal"],
    ] as const) {
      const node = new TestNode({ own: 3, config: breakRule ? { testOnlyBreakRule: breakRule } : {} });
      node.startRound0();
      const a = node.block(0);
      node.receiveValidProposal(a, 0);
      node.votes(OTHERS, "prevote", 0, a.blockId); // L36: lock on A in round 0
      assert.equal(node.state.lockedRound, 0);
      node.votes(OTHERS, "precommit", 0, NIL); // +2/3 precommits any → timeoutPrecommit
      node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrecommitWait });
      assert.equal(node.state.round, 1);
      const b = node.block(1, [new Uint8Array([9])]);
      const effects = node.receiveValidProposal(b, 1);
      assert.deepEqual(signed(effects), [`prevote:${expected === "nil" ? "nil" : short(b)}`]);
    }
  });

  it("L28: prevotes a proposal with a POL round once the polka of that round is seen, even when locked earlier", () => {
    const node = atPropose();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes(OTHERS, "prevote", 0, a.blockId); // lock A at round 0
    node.votes(OTHERS, "precommit", 0, NIL);
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrecommitWait });
    node.votes(OTHERS, "precommit", 1, NIL);
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 1, step: RoundStep.PrecommitWait });
    assert.equal(node.state.round, 2);
    const b = node.block(2, [new Uint8Array([8])]);
    // Proposal for round 2 names POL round 1: no polka for B in round 1 yet, so it waits.
    const waiting = node.receiveValidProposal(b, 2, 1);
    assert.deepEqual(signed(waiting), []);
    assert.equal(node.state.step, RoundStep.Propose);
    // The polka of round 1 for B (lockedRound 0 ≤ vr 1): prevote B.
    const effects = node.votes(OTHERS, "prevote", 1, b.blockId);
    assert.deepEqual(signed(effects), [`prevote:${short(b)}`]);
    assert.equal(node.state.lockedRound, 0, "L28 itself does not move the lock");
  });

  it("L28: a POL round older than the lock does not unlock (prevote nil)", () => {
    const node = atPropose();
    const a = node.block(0);
    const b = node.block(1, [new Uint8Array([8])]);
    // Round 0: a polka for B forms without us (we never saw B's proposal).
    node.receiveValidProposal(a, 0);
    node.votes([0, 1], "prevote", 0, b.blockId);
    node.votes([2], "prevote", 0, b.blockId);
    node.votes(OTHERS, "precommit", 0, NIL);
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrecommitWait });
    // Round 1: proposal A with polRound -1, polka for A: we lock A in round 1.
    node.receiveValidProposal(a, 1);
    node.votes(OTHERS, "prevote", 1, a.blockId);
    assert.equal(node.state.lockedRound, 1);
    node.votes(OTHERS, "precommit", 1, NIL);
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 1, step: RoundStep.PrecommitWait });
    // Round 2: B with POL round 0 < lockedRound 1 → nil.
    const effects = node.receiveValidProposal(b, 2, 0);
    assert.deepEqual(signed(effects), ["prevote:nil"]);
  });
});

describe("consensus: prevote upon-rules", () => {
  it("L34: +2/3 prevotes for anything schedules timeoutPrevote (growing by its delta)", () => {
    const node = atPropose();
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose }); // prevote nil
    const a = node.block(0);
    node.votes([0], "prevote", 0, a.blockId);
    node.votes([1], "prevote", 0, NIL);
    const effects = node.votes([2], "prevote", 0, node.block(1).blockId);
    assert.deepEqual(only(effects, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 1n, round: 0, step: RoundStep.PrevoteWait, durationMs: 1000 },
    ]);
    assert.equal(node.state.step, RoundStep.PrevoteWait);
    // For the first time only.
    assert.deepEqual(only(node.votes([3], "prevote", 0, NIL), "ScheduleTimeout"), []);
  });

  it("L36: polka for the proposal locks it, precommits it, and makes it the valid block", () => {
    const node = atPropose();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes([0, 1], "prevote", 0, a.blockId);
    const effects = node.votes([2], "prevote", 0, a.blockId);
    assert.deepEqual(signed(effects), [`precommit:${short(a)}`]);
    assert.deepEqual(
      events(effects).filter((e) => e !== "Vote" && e !== "NewRoundStep"),
      ["Polka", "Lock", "ValidBlock"],
    );
    assert.equal(node.state.step, RoundStep.Precommit);
    assert.equal(node.state.lockedRound, 0);
    assert.equal(node.state.validRound, 0);
    assert.equal(short(node.state.lockedBlock!), short(a));
  });

  it("L36 in the precommit step only updates the valid block (no lock, no second precommit)", () => {
    const node = atPropose();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes([0], "prevote", 0, NIL);
    node.votes([1, 2], "prevote", 0, a.blockId); // +2/3 any: PrevoteWait
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrevoteWait }); // L61: precommit nil
    assert.equal(node.state.step, RoundStep.Precommit);
    // Our own prevote for A completes the polka late.
    const own = node.vote(3, "prevote", 0, a.blockId);
    const effects = node.feed({ type: "VoteSigned", vote: own });
    assert.deepEqual(signed(effects), []);
    assert.equal(node.state.lockedRound, -1);
    assert.equal(node.state.validRound, 0);
  });

  it("L44: +2/3 prevotes for nil precommits nil", () => {
    const node = atPropose();
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose });
    const effects = node.votes(OTHERS, "prevote", 0, NIL);
    assert.deepEqual(signed(effects), ["precommit:nil"]);
    assert.equal(node.state.step, RoundStep.Precommit);
  });

  it("precommit-without-polka (test-only broken rule) precommits right after prevoting", () => {
    const node = new TestNode({ own: 3, config: { testOnlyBreakRule: "precommit-without-polka" } });
    node.startRound0();
    const a = node.block(0);
    const effects = node.receiveValidProposal(a, 0);
    assert.deepEqual(signed(effects), [`prevote:${short(a)}`, `precommit:${short(a)}`]);
  });
});

describe("consensus: precommit upon-rules and commit", () => {
  it("L47: +2/3 precommits for anything schedules timeoutPrecommit", () => {
    const node = atPropose();
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose });
    node.votes(OTHERS, "prevote", 0, NIL); // precommit nil, step Precommit
    node.votes([0], "precommit", 0, NIL);
    node.votes([1], "precommit", 0, node.block(0).blockId);
    const effects = node.votes([2], "precommit", 0, NIL);
    assert.deepEqual(only(effects, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 1n, round: 0, step: RoundStep.PrecommitWait, durationMs: 1000 },
    ]);
    assert.equal(node.state.step, RoundStep.PrecommitWait);
  });

  it("L49: +2/3 precommits for the proposal block decide it: CommitBlock with the seen commit", () => {
    const node = atPropose();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.nowMs = 500;
    node.votes([0, 1], "precommit", 0, a.blockId);
    const effects = node.votes([2], "precommit", 0, a.blockId);
    const [commit] = only(effects, "CommitBlock");
    assert.ok(commit);
    assert.equal(commit.height, 1n);
    assert.equal(short({ ...a, blockId: commit.blockId }), short(a));
    assert.deepEqual(
      commit.seenCommit.signatures.map((s) => s.blockIdFlag),
      [2, 2, 2, 1],
    );
    assert.equal(commit.parts.length, a.parts.header.total);
    assert.equal(node.state.step, RoundStep.Commit);
    assert.deepEqual(node.state.commitTime, {
      seconds: node.chain.lastBlockTime.seconds,
      nanos: 500_000_000,
    });
    // Decided once: later precommits change nothing.
    assert.deepEqual(only(node.votes([3], "precommit", 0, a.blockId), "CommitBlock"), []);
  });

  it("L49 for a block we do not have: the commit step waits for its parts", () => {
    const node = atPropose();
    const a = node.block(0);
    const effects = node.votes(OTHERS, "precommit", 2, a.blockId);
    assert.equal(node.state.step, RoundStep.Commit);
    assert.equal(node.state.commitRound, 2);
    assert.deepEqual(only(effects, "CommitBlock"), []);
    // A proposal of another block for the same round does not disturb collecting the decided one.
    const other = node.block(2, [new Uint8Array([6])]);
    node.feed({ type: "ProposalReceived", proposal: node.proposal(other, 2), from: "p" });
    const part = node.feed({
      type: "BlockPartReceived",
      height: 1n,
      round: 2,
      part: a.parts.parts[0]!,
      from: "p",
    });
    assert.deepEqual(
      commands(part).filter((c) => c === "CommitBlock"),
      ["CommitBlock"],
    );
  });

  it("BlockExecuted starts the next height after timeout_commit from the commit time", () => {
    const node = atPropose();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.nowMs = 2000;
    node.votes(OTHERS, "precommit", 0, a.blockId);
    node.nowMs = 2300;
    const executed = node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    assert.equal(node.state.height, 2n);
    assert.equal(node.state.step, RoundStep.NewHeight);
    assert.deepEqual(only(executed, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 2n, round: 0, step: RoundStep.NewHeight, durationMs: 700 },
    ]);
    assert.equal(node.state.lockedRound, -1);
    assert.equal(node.state.lastCommitRound, 0);
  });
});

describe("consensus: round skip and timeouts", () => {
  it("L55: +2/3 of any votes for a later round starts that round", () => {
    const node = atPropose();
    const effects = node.votes(OTHERS, "prevote", 2, NIL);
    assert.equal(node.state.round, 2);
    assert.ok(events(effects).includes("NewRound"));
    // Propose timeout of round 2: 3000 + 2 × 500.
    assert.ok(
      only(effects, "ScheduleTimeout").some((t) => t.step === RoundStep.Propose && t.durationMs === 4000),
    );
    // Fewer than 2/3 in a later round does nothing.
    const quiet = atPropose();
    quiet.votes([0, 1], "precommit", 5, NIL);
    assert.equal(quiet.state.round, 0);
  });

  it("L55 on precommits also starts timeoutPrecommit of that round (L47)", () => {
    const node = atPropose();
    const effects = node.votes(OTHERS, "precommit", 1, NIL);
    assert.equal(node.state.round, 1);
    assert.ok(
      only(effects, "ScheduleTimeout").some(
        (t) => t.step === RoundStep.PrecommitWait && t.round === 1 && t.durationMs === 1500,
      ),
    );
  });

  it("L57: timeoutPropose prevotes nil; a stale one is ignored", () => {
    const node = atPropose();
    assert.deepEqual(
      node.feed({ type: "TimeoutElapsed", height: 1n, round: 1, step: RoundStep.Propose }),
      [],
    );
    const effects = node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose });
    assert.deepEqual(signed(effects), ["prevote:nil"]);
    assert.ok(events(effects).includes("TimeoutPropose"));
    assert.deepEqual(
      node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose }),
      [],
    );
  });

  it("L61: timeoutPrevote precommits nil", () => {
    const node = atPropose();
    node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose });
    node.votes([0], "prevote", 0, NIL);
    node.votes([1, 2], "prevote", 0, node.block(0).blockId);
    const effects = node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.PrevoteWait });
    assert.deepEqual(signed(effects), ["precommit:nil"]);
    assert.ok(events(effects).includes("TimeoutWait"));
  });

  it("L65: timeoutPrecommit starts the next round, whose timeouts grow by their deltas", () => {
    const node = atPropose();
    const effects = node.feed({
      type: "TimeoutElapsed",
      height: 1n,
      round: 0,
      step: RoundStep.PrecommitWait,
    });
    assert.equal(node.state.round, 1);
    assert.deepEqual(only(effects, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 1n, round: 1, step: RoundStep.Propose, durationMs: 3500 },
    ]);
  });

  it("the proposer of a later round re-proposes its valid block with the valid round as POL round", () => {
    const node = new TestNode({ own: 1 });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes([0, 2, 3], "prevote", 0, a.blockId);
    assert.equal(node.state.validRound, 0);
    node.votes([0, 2, 3], "precommit", 0, NIL);
    const effects = node.feed({
      type: "TimeoutElapsed",
      height: 1n,
      round: 0,
      step: RoundStep.PrecommitWait,
    });
    const [sign] = only(effects, "SignProposal");
    assert.ok(sign, "validator 1 proposes round 1");
    assert.equal(sign.proposal.polRound, 0);
    assert.equal(short({ ...a, blockId: sign.proposal.blockId }), short(a));
    assert.equal(commands(effects).includes("ReapProposalBlock"), false);
  });
});

describe("consensus: the proposer follows the rounds entered (v0.34's path-dependent priorities)", () => {
  // A set (found by fuzzing) where three single increments and one increment by three choose
  // different proposers: rescaling and centring run once per increment call.
  const key = (b: number) => new Uint8Array(32).fill(b);
  const members = (
    [
      [2, 99n, 862n],
      [1, 77n, 982n],
      [3, 12n, -631n],
    ] as const
  ).map(([b, votingPower, proposerPriority]) => ({
    address: addressOf(key(b)),
    pubKey: { sum: { $case: "ed25519" as const, ed25519: key(b) } },
    votingPower,
    proposerPriority,
  }));
  const chain = {
    ...genesisChain([99n, 77n, 12n], [key(2), key(1), key(3)]),
    validators: ValidatorSet.fromValidators(members).toProto(),
  };
  const rules = createDefaultConsensusRules();

  it("round 3 through rounds 1 and 2 has another proposer than round 3 reached directly", () => {
    const stepwise = new TestNode({ chain });
    stepwise.startRound0();
    for (const round of [0, 1, 2])
      stepwise.feed({ type: "TimeoutElapsed", height: 1n, round, step: RoundStep.PrecommitWait });
    assert.equal(stepwise.state.round, 3);
    let path = chain.validators;
    for (let i = 0; i < 3; i++) path = rules.incrementProposerPriority(path, 1);
    assert.deepEqual(stepwise.state.proposer!.address, rules.proposerOf(path).address);

    const direct = new TestNode({ chain });
    direct.startRound0();
    direct.votes([0, 1], "prevote", 3, NIL); // +2/3 in round 3: L55 straight there
    assert.equal(direct.state.round, 3);
    assert.deepEqual(direct.state.proposer!.address, rules.proposer(chain.validators, 3).address);
    assert.notDeepEqual(direct.state.proposer!.address, stepwise.state.proposer!.address);
  });
});
