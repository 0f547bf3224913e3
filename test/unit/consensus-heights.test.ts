// Across heights: create_empty_blocks and its interval, skip_timeout_commit, BFT time, evidence
// from conflicting votes, bad peer data, halting, replay, and four reducers deciding together.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ConsensusConfig,
  type ConsensusEffect,
  type ConsensusInput,
  commitFromPrecommits,
  type HeldBlock,
  medianCommitTime,
  RoundStep,
  weightedMedian,
} from "../../src/consensus/index.js";
import { duplicateVoteEvidence } from "../../src/evidence/index.js";
import { blockIdKey } from "../../src/wire/block-id.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import {
  at,
  chainAfter,
  commands,
  genesisChain,
  type InputWithoutTime,
  NIL,
  only,
  TestNode,
} from "./consensus-harness.js";

const OTHERS = [0, 1, 2];

/** Runs height 1 to its decision with validator 0's block and executes it; returns the node at height 2. */
function throughHeight1(node: TestNode, appHash = new Uint8Array(0)): HeldBlock {
  node.startRound0();
  const a = node.block(0);
  node.receiveValidProposal(a, 0);
  node.nowMs = 1500;
  node.votes(OTHERS, "precommit", 0, a.blockId);
  node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a, appHash) });
  return a;
}

describe("consensus: create_empty_blocks", () => {
  it("= false: round 0 waits in NewRound for transactions, then proposes", () => {
    const node = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    throughHeight1(node);
    const round0 = node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    assert.equal(node.state.step, RoundStep.NewRound);
    assert.deepEqual(only(round0, "ScheduleTimeout"), [], "no interval: no timer");
    const txs = node.feed({ type: "TxsAvailable", height: 2n });
    assert.equal(node.state.step, RoundStep.Propose);
    assert.deepEqual(
      only(txs, "ScheduleTimeout").map((t) => t.step),
      [RoundStep.Propose],
    );
  });

  it("= false: transactions reported during NewHeight let round 0 propose at once", () => {
    const node = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    throughHeight1(node);
    node.feed({ type: "TxsAvailable", height: 2n });
    node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    assert.equal(node.state.step, RoundStep.Propose);
  });

  it("= false: a round 0 waiting for transactions still prevotes a complete proposal", () => {
    const node = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    throughHeight1(node);
    node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    assert.equal(node.state.step, RoundStep.NewRound);
    const proposer = node.indexOf(node.state.proposer!.address);
    const lastCommit = commitFromPrecommits(node.state.lastCommit!, 0, node.state.chain.lastBlockId);
    const b = node.block(proposer, [new Uint8Array([7])], lastCommit);
    const effects = node.receiveValidProposal(b, 0);
    assert.equal(only(effects, "SignVote")[0]?.vote.type, 1);
    assert.equal(node.state.step, RoundStep.Prevote);
  });

  it("= false: TxsAvailable for the next height, reported before BlockExecuted, is kept", () => {
    const node = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes(OTHERS, "precommit", 0, a.blockId);
    node.feed({ type: "TxsAvailable", height: 2n });
    node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    assert.equal(node.state.step, RoundStep.Propose);
  });

  it("the first height, and a height after an app hash change, propose without transactions (proof block)", () => {
    const first = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    first.startRound0();
    assert.equal(first.state.step, RoundStep.Propose);
    const changed = new TestNode({ own: 3, config: { createEmptyBlocks: false } });
    throughHeight1(changed, new Uint8Array([0xaa]));
    changed.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    assert.equal(changed.state.step, RoundStep.Propose);
  });

  it("create_empty_blocks_interval forces a proposal when the interval elapses", () => {
    const node = new TestNode({
      own: 3,
      config: { createEmptyBlocks: true, createEmptyBlocksIntervalMs: 5000 },
    });
    throughHeight1(node);
    const round0 = node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    assert.deepEqual(only(round0, "ScheduleTimeout"), [
      { type: "ScheduleTimeout", height: 2n, round: 0, step: RoundStep.NewRound, durationMs: 5000 },
    ]);
    assert.equal(node.state.step, RoundStep.NewRound);
    node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewRound });
    assert.equal(node.state.step, RoundStep.Propose);
  });
});

describe("consensus: skip_timeout_commit", () => {
  it("starts the next height at once when every precommit is in", () => {
    const node = new TestNode({ own: 3, config: { skipTimeoutCommit: true } });
    node.startRound0();
    const a = node.block(0);
    // Every precommit is in when the decision is made (the block came last).
    node.votes([0, 1, 2, 3], "precommit", 0, a.blockId);
    node.receiveValidProposal(a, 0);
    const executed = node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    assert.deepEqual(
      only(executed, "ScheduleTimeout").map((t) => t.durationMs),
      [0],
    );
  });

  it("with a precommit missing it waits, and the late precommit starts round 0", () => {
    const node = new TestNode({ own: 3, config: { skipTimeoutCommit: true } });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes(OTHERS, "precommit", 0, a.blockId);
    const executed = node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    assert.deepEqual(
      only(executed, "ScheduleTimeout").map((t) => t.durationMs),
      [1000],
    );
    const late = node.vote(3, "precommit", 0, a.blockId);
    node.feed({ type: "VoteReceived", vote: { ...late, height: 1n }, from: "p3" });
    assert.equal(node.state.step, RoundStep.Propose);
  });
});

describe("consensus: the last commit of a new height", () => {
  it("is the stored seen commit, as after a restart: a precommit folded between the decision and BlockExecuted stays out", () => {
    const node = new TestNode({ own: 3, config: { skipTimeoutCommit: true } });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    const decided = node.votes(OTHERS, "precommit", 0, a.blockId);
    const commit = only(decided, "CommitBlock")[0]!;
    const late = node.vote(3, "precommit", 0, a.blockId);
    node.feed({ type: "VoteReceived", vote: late, from: "p3" });
    const chain = chainAfter(node.chain, a);
    node.feed({ type: "BlockExecuted", height: 1n, chainState: chain });

    const restarted = new TestNode({ own: 3, chain, config: { skipTimeoutCommit: true } });
    restarted.start(commit.seenCommit);
    assert.deepEqual(node.state.lastCommit, restarted.state.lastCommit);
    assert.equal(node.state.lastCommitRound, restarted.state.lastCommitRound);
  });
});

describe("consensus: BFT time", () => {
  const t = (s: number): Timestamp => ({ seconds: BigInt(s), nanos: 0 });

  it("weighted median: the time at half the total power, walking times in order", () => {
    // Total 3, half 1 (integer division): the earliest time already carries weight 1.
    assert.deepEqual(
      weightedMedian([
        { time: t(3), power: 1n },
        { time: t(1), power: 1n },
        { time: t(2), power: 1n },
      ]),
      t(1),
    );
    // A heavy validator pulls the median to its time.
    assert.deepEqual(
      weightedMedian([
        { time: t(1), power: 1n },
        { time: t(9), power: 10n },
        { time: t(2), power: 1n },
      ]),
      t(9),
    );
    // Total 4, half 2: the first time whose weight reaches what is left (2 → 1 → t(2)).
    assert.deepEqual(
      weightedMedian([
        { time: t(1), power: 1n },
        { time: t(2), power: 1n },
        { time: t(3), power: 1n },
        { time: t(4), power: 1n },
      ]),
      t(2),
    );
    assert.equal(weightedMedian([]), undefined);
  });

  it("the block of height 2 carries the weighted median of its LastCommit, after the last block time", () => {
    const node = new TestNode({ own: 0 });
    node.startRound0();
    const a = node.block(1); // proposed by someone else; we (validator 0) also precommit it
    node.feed({ type: "ProposalReceived", proposal: node.proposal(a, 0), from: "p" });
    node.feed({ type: "BlockPartReceived", height: 1n, round: 0, part: a.parts.parts[0]!, from: "p" });
    node.feed({ type: "BlockValidated", height: 1n, blockHash: a.blockId.hash });
    // Precommits at 4 s, 5 s, 6 s from validators 1–3: median of {4,5,6} (+ absent 0) is 5 s.
    for (const [i, ms] of [
      [1, 4000],
      [2, 5000],
      [3, 6000],
    ] as const) {
      node.feed({ type: "VoteReceived", vote: node.vote(i, "precommit", 0, a.blockId, ms), from: `p${i}` });
    }
    const seen = commitFromPrecommits(node.state.votes, 0, a.blockId);
    assert.deepEqual(medianCommitTime(seen, node.validators), at(5000));
    node.nowMs = 7000;
    node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    // Height 2: find a round where validator 0 proposes.
    node.feed({ type: "TimeoutElapsed", height: 2n, round: 0, step: RoundStep.NewHeight });
    let round = 0;
    while (!node.state.proposer || node.indexOf(node.state.proposer.address) !== 0) {
      node.feed({ type: "TimeoutElapsed", height: 2n, round, step: RoundStep.PrecommitWait });
      round++;
    }
    node.feed({ type: "ProposalBlockReaped", height: 2n, round, txs: [], evidence: [] });
    const block = node.state.signingProposalBlock!.block;
    assert.deepEqual(block.header.time, at(5000));
    assert.ok(block.header.time.seconds > a.block.header.time.seconds, "strictly after the last block");
    assert.equal(block.lastCommit!.signatures.length, 4);
  });

  it("our vote time is never before the proposal block's time plus time_iota_ms", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0); // genesis time
    node.nowMs = 10; // the clock is behind the block time + 1 s
    const effects = node.receiveValidProposal(a, 0);
    const [sign] = only(effects, "SignVote");
    assert.deepEqual(sign!.vote.timestamp, at(1000));
    // A clock ahead of that bound is used as is.
    const other = new TestNode({ own: 3 });
    other.startRound0();
    other.nowMs = 2500;
    const [late] = only(other.receiveValidProposal(a, 0), "SignVote");
    assert.deepEqual(late!.vote.timestamp, at(2500));
  });
});

describe("consensus: evidence and bad data", () => {
  it("a conflicting vote becomes ReportConflictingVotes (ordered by BlockID key), its power counted once", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0);
    const b = node.block(0, [new Uint8Array([42])]);
    node.votes([1], "prevote", 0, a.blockId);
    const effects = node.votes([1], "prevote", 0, b.blockId);
    const [report] = only(effects, "ReportConflictingVotes");
    assert.ok(report);
    assert.ok(
      Buffer.compare(
        Buffer.from(blockIdKey(report.voteA.blockId)),
        Buffer.from(blockIdKey(report.voteB.blockId)),
      ) < 0,
    );
    // The validator's power counts once toward "any", and toward each value it voted for.
    const prevotes = node.state.votes.rounds[0]!.prevotes;
    assert.equal(prevotes.power, 10n);
    assert.deepEqual(
      prevotes.blocks.map((e) => e.power),
      [10n, 10n],
    );
    assert.deepEqual(node.votes([1], "prevote", 0, b.blockId), []);
    const evidence = duplicateVoteEvidence(report.voteB, report.voteA, at(0), node.validators);
    assert.deepEqual(evidence.voteA, report.voteA);
    assert.equal(evidence.totalVotingPower, 40n);
    assert.equal(evidence.validatorPower, 10n);
    assert.throws(
      () =>
        duplicateVoteEvidence(report.voteA, node.vote(2, "prevote", 0, a.blockId), at(0), node.validators),
      {
        code: "EVIDENCE_NOT_A_CONFLICT",
      },
    );
  });

  it("our own conflicting vote halts consensus and is not broadcast", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    node.feed({ type: "VoteSigned", vote: node.vote(3, "prevote", 0, NIL) });
    const effects = node.feed({
      type: "VoteSigned",
      vote: node.vote(3, "prevote", 0, node.block(0).blockId),
    });
    assert.deepEqual(commands(effects), ["ReportConflictingVotes", "Halt"]);
    assert.ok(node.state.halted);
    assert.deepEqual(
      node.feed({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.Propose }),
      [],
    );
  });

  it("a vote from outside the set or a part with a bad proof is dropped with PeerMisbehaved, state unchanged", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const before = node.state;
    const stranger = { ...node.vote(1, "prevote", 0, NIL), validatorIndex: 9 };
    const effects = node.feed({ type: "VoteReceived", vote: stranger, from: "bad" });
    assert.deepEqual(commands(effects), ["PeerMisbehaved"]);
    assert.equal(node.state, before);
    const a = node.block(0);
    node.feed({ type: "ProposalReceived", proposal: node.proposal(a, 0), from: "p" });
    const withProposal = node.state;
    const part = a.parts.parts[0]!;
    const tampered = { ...part, bytes: part.bytes.map((x, i) => (i === 0 ? x ^ 1 : x)) };
    const bad = node.feed({ type: "BlockPartReceived", height: 1n, round: 0, part: tampered, from: "bad" });
    assert.equal(only(bad, "PeerMisbehaved")[0]?.peer, "bad");
    assert.equal(node.state, withProposal);
    // A malformed proposal (POL round not below its round) is misbehaviour too.
    const other = new TestNode({ own: 3 });
    other.startRound0();
    const malformed = other.feed({
      type: "ProposalReceived",
      proposal: other.proposal(a, 0, 0),
      from: "bad",
    });
    assert.deepEqual(commands(malformed), ["PeerMisbehaved"]);
  });

  it("votes of the next height that come early are kept and counted when it starts", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0);
    node.receiveValidProposal(a, 0);
    node.votes(OTHERS, "precommit", 0, a.blockId);
    const early = [0, 1, 2].map((i) => ({ ...node.vote(i, "prevote", 0, NIL), height: 2n }));
    for (const vote of early) node.feed({ type: "VoteReceived", vote, from: "p" });
    // The same vote again is not buffered twice.
    node.feed({ type: "VoteReceived", vote: early[0]!, from: "p" });
    assert.equal(node.state.nextHeightVotes.length, 3);
    node.feed({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, a) });
    assert.equal(node.state.nextHeightVotes.length, 0);
    assert.equal(node.state.votes.rounds[0]!.prevotes.power, 30n);
    assert.equal(node.state.votes.rounds[0]!.prevotes.majority?.key, "");
  });

  it("+2/3 precommits for a block whose part-set header cannot exist halt consensus", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const impossible = {
      hash: new Uint8Array(32).fill(1),
      partSetHeader: { total: 5000, hash: new Uint8Array(32).fill(2) },
    };
    const effects = node.votes(OTHERS, "precommit", 0, impossible);
    assert.deepEqual(
      commands(effects).filter((c) => c === "Halt"),
      ["Halt"],
    );
    assert.match(node.state.halted!, /impossible part-set header/);
  });

  it("a reaped proposal over max_bytes halts (the reap handler broke its limits)", () => {
    const chain = genesisChain();
    const small = {
      ...chain,
      consensusParams: {
        ...chain.consensusParams,
        block: { ...chain.consensusParams.block, maxBytes: 4096n },
      },
    };
    const node = new TestNode({ own: 0, chain: small });
    node.startRound0();
    const effects = node.feed({
      type: "ProposalBlockReaped",
      height: 1n,
      round: 0,
      txs: [new Uint8Array(5000)],
      evidence: [],
    });
    assert.deepEqual(commands(effects), ["Halt"]);
    assert.match(node.state.halted!, /over max_bytes 4096/);
  });

  it("SignFailed halts: a Halt effect, then every input is ignored", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const effects = node.feed({
      type: "SignFailed",
      height: 1n,
      round: 0,
      what: "prevote",
      reason: "double sign",
    });
    assert.deepEqual(commands(effects), ["Halt"]);
    assert.match(node.state.halted!, /prevote.*height 1 round 0.*double sign/);
    assert.deepEqual(node.votes(OTHERS, "prevote", 2, NIL), []);
  });

  it("before ConsensusStarted every input is ignored", () => {
    const node = new TestNode({ own: 3 });
    assert.deepEqual(node.feed({ type: "TxsAvailable", height: 1n }), []);
    assert.equal(node.state.started, false);
  });
});

/** Four reducers on a virtual clock with instant delivery; fake signer, mempool, validator and executor. */
class Network {
  readonly nodes: TestNode[];
  readonly committed: Map<bigint, string>[];
  readonly blocks = new Map<bigint, HeldBlock>();
  private readonly queue: { node: number; input: InputWithoutTime }[] = [];
  private readonly timers = new Map<number, { at: number; input: InputWithoutTime }>();
  now = 0;

  /** `owners[k]`: the validator index node k signs as, or undefined for a node that only follows. */
  constructor(
    owners: readonly (number | undefined)[] = [0, 1, 2, 3],
    powers: readonly bigint[] = [10n, 10n, 10n, 10n],
    config: Partial<ConsensusConfig> = {},
  ) {
    this.nodes = owners.map(
      (own) => new TestNode({ ...(own === undefined ? {} : { own }), chain: genesisChain(powers), config }),
    );
    this.committed = this.nodes.map(() => new Map());
  }

  start(): void {
    this.nodes.forEach((node, i) => {
      this.handle(i, node.start());
    });
  }

  private handle(i: number, effects: ConsensusEffect[]): void {
    const node = this.nodes[i]!;
    const others = (input: InputWithoutTime) => {
      for (let j = 0; j < this.nodes.length; j++) if (j !== i) this.queue.push({ node: j, input });
    };
    for (const e of effects) {
      switch (e.type) {
        case "ScheduleTimeout":
          this.timers.set(i, {
            at: this.now + e.durationMs,
            input: { type: "TimeoutElapsed", height: e.height, round: e.round, step: e.step },
          });
          break;
        case "SignVote":
          this.queue.push({
            node: i,
            input: { type: "VoteSigned", vote: { ...e.vote, signature: new Uint8Array(64) } },
          });
          break;
        case "SignProposal":
          this.queue.push({
            node: i,
            input: { type: "ProposalSigned", proposal: { ...e.proposal, signature: new Uint8Array(64) } },
          });
          break;
        case "ReapProposalBlock":
          this.queue.push({
            node: i,
            input: {
              type: "ProposalBlockReaped",
              height: e.height,
              round: e.round,
              txs: [new Uint8Array([Number(e.height)])],
              evidence: [],
            },
          });
          break;
        case "ValidateBlock":
          this.queue.push({
            node: i,
            input: { type: "BlockValidated", height: e.height, blockHash: e.blockId.hash },
          });
          break;
        case "BroadcastProposal":
          others({ type: "ProposalReceived", proposal: e.proposal, from: `n${i}` });
          break;
        case "BroadcastBlockPart":
          others({
            type: "BlockPartReceived",
            height: e.height,
            round: e.round,
            part: e.part,
            from: `n${i}`,
          });
          break;
        case "BroadcastVote":
          others({ type: "VoteReceived", vote: e.vote, from: `n${i}` });
          break;
        case "CommitBlock": {
          const held: HeldBlock = {
            block: e.block,
            blockId: e.blockId,
            parts: node.state.proposalBlock!.parts,
          };
          this.committed[i]!.set(e.height, Buffer.from(e.blockId.hash).toString("hex"));
          this.blocks.set(e.height, held);
          this.queue.push({
            node: i,
            input: {
              type: "BlockExecuted",
              height: e.height,
              chainState: chainAfter(node.state.chain, held),
            },
          });
          break;
        }
        case "Halt":
          throw new Error(`node ${i} halted: ${e.reason}`);
        default:
          break;
      }
    }
  }

  /** Delivers queued inputs; when none is left, advances the clock to the earliest timer. */
  run(untilHeight: bigint, maxSteps = 20_000): void {
    for (let step = 0; step < maxSteps; step++) {
      if (this.nodes.every((n) => n.state.height > untilHeight)) return;
      const next = this.queue.shift();
      if (next !== undefined) {
        const node = this.nodes[next.node]!;
        node.nowMs = this.now;
        this.handle(next.node, node.feed(next.input));
        continue;
      }
      let earliest: number | undefined;
      for (const [i, timer] of this.timers)
        if (earliest === undefined || timer.at < this.timers.get(earliest)!.at) earliest = i;
      if (earliest === undefined) throw new Error("nothing left to do");
      const timer = this.timers.get(earliest)!;
      this.timers.delete(earliest);
      this.now = Math.max(this.now, timer.at);
      this.queue.push({ node: earliest, input: timer.input });
    }
    throw new Error(`no progress to height ${untilHeight} within ${maxSteps} steps`);
  }
}

describe("consensus: four reducers deciding together", () => {
  it("commit the same blocks for 5 heights, with strictly increasing BFT times", () => {
    const net = new Network();
    net.start();
    net.run(5n);
    for (let h = 1n; h <= 5n; h++) {
      const hashes = new Set(net.committed.map((c) => c.get(h)));
      assert.equal(hashes.size, 1, `one block at height ${h}`);
      assert.ok(!hashes.has(undefined));
    }
    for (let h = 2n; h <= 5n; h++) {
      const prev = net.blocks.get(h - 1n)!.block.header.time;
      const cur = net.blocks.get(h)!.block.header.time;
      assert.ok(
        cur.seconds > prev.seconds || (cur.seconds === prev.seconds && cur.nanos > prev.nanos),
        `time grows at ${h}`,
      );
      assert.deepEqual(net.blocks.get(h)!.block.data.txs, [new Uint8Array([Number(h)])]);
    }
    // About one block per second: timeout_commit paces the heights.
    assert.ok(net.now >= 4000 && net.now < 10_000, `took ${net.now} ms of virtual time`);
  });

  it("a single validator decides alone (skip_timeout_commit), and a non-validator follows it", () => {
    const net = new Network([0, undefined], [10n], { skipTimeoutCommit: true });
    net.start();
    net.run(5n);
    for (let h = 1n; h <= 5n; h++) assert.equal(net.committed[1]!.get(h), net.committed[0]!.get(h));
    // Only the start waits timeout_commit; with every precommit in (one validator), later heights
    // start at once: 5 heights in 1 s of virtual time.
    assert.equal(net.now, 1000);
    assert.equal(net.nodes[1]!.state.ownIndex, -1);
  });

  it("replaying a node's log gives identical states and effects", () => {
    const net = new Network();
    net.start();
    net.run(3n);
    const original = net.nodes[2]!;
    const replica = new TestNode({ own: 2, chain: genesisChain() });
    let state = replica.state;
    const replayedEffects: ConsensusEffect[][] = [];
    for (const input of original.log as ConsensusInput[]) {
      const t = replica.reducer(state, input);
      state = t.state;
      replayedEffects.push([...t.effects]);
    }
    assert.deepEqual(state, original.state);
    // And a second replay from scratch gives the same effects, input by input.
    let again = replica.state;
    original.log.forEach((input, k) => {
      const t = replica.reducer(again, input);
      again = t.state;
      assert.deepEqual([...t.effects], replayedEffects[k]);
    });
  });
});
