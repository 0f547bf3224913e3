// Four reducers on a virtual clock over a lossy, reordering, duplicating network with a simple
// gossip (each node re-sends what it signed for the height a peer is at, and the decided block's
// precommits and parts to peers still on that height). Safety: never two different blocks at one
// height. Liveness: every node passes height 4 once the network is good.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ConsensusEffect, HeldBlock } from "../../src/consensus/index.js";
import type { Part, Proposal, Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { chainAfter, genesisChain, type InputWithoutTime, TestNode } from "./consensus-harness.js";

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sent {
  proposals: Map<string, Proposal>;
  parts: Map<string, { height: bigint; round: number; part: Part }>;
  votes: Map<string, Vote>;
}

interface Faults {
  drop: number;
  duplicate: number;
  maxDelayMs: number;
  /** Until this time, messages between {0,1} and {2,3} are lost. */
  partitionUntilMs: number;
  /** Node 3 sends conflicting prevotes (one block to half the peers, nil to the rest). */
  equivocator: boolean;
  /** A node that crashes at `atMs` (losing timers and in-flight messages) and restarts from its log. */
  crash?: { node: number; atMs: number; downMs: number };
}

class LossyNetwork {
  readonly nodes = [0, 1, 2, 3].map((own) => new TestNode({ own, chain: genesisChain() }));
  readonly decided = new Map<bigint, string>();
  readonly conflicts: ConsensusEffect[] = [];
  private readonly sent: Sent[] = this.nodes.map(() => ({
    proposals: new Map(),
    parts: new Map(),
    votes: new Map(),
  }));
  private readonly commits = new Map<bigint, { votes: Vote[]; held: HeldBlock }>();
  private events: { at: number; seq: number; node: number; input: InputWithoutTime }[] = [];
  private readonly timers = new Map<number, { at: number; input: InputWithoutTime }>();
  private seq = 0;
  private down = new Set<number>();
  private crashed = false;
  restarts = 0;
  now = 0;

  constructor(
    private readonly random: () => number,
    private readonly faults: Faults,
  ) {}

  private at(ms: number, node: number, input: InputWithoutTime): void {
    this.events.push({ at: ms, seq: this.seq++, node, input });
  }

  private connected(a: number, b: number): boolean {
    if (this.now >= this.faults.partitionUntilMs) return true;
    return a < 2 === b < 2;
  }

  private send(from: number, to: number, input: InputWithoutTime): void {
    if (!this.connected(from, to) || this.random() < this.faults.drop) return;
    const copies = this.random() < this.faults.duplicate ? 2 : 1;
    for (let c = 0; c < copies; c++)
      this.at(this.now + Math.floor(this.random() * this.faults.maxDelayMs), to, input);
  }

  private broadcast(from: number, input: InputWithoutTime): void {
    for (let to = 0; to < this.nodes.length; to++) if (to !== from) this.send(from, to, input);
  }

  start(): void {
    this.nodes.forEach((node, i) => {
      node.nowMs = 0;
      this.handle(i, node.start());
    });
  }

  private handle(i: number, effects: ConsensusEffect[]): void {
    const node = this.nodes[i]!;
    const sent = this.sent[i]!;
    for (const e of effects) {
      switch (e.type) {
        case "ScheduleTimeout":
          this.timers.set(i, {
            at: this.now + e.durationMs,
            input: { type: "TimeoutElapsed", height: e.height, round: e.round, step: e.step },
          });
          break;
        case "SignVote":
          this.at(this.now, i, {
            type: "VoteSigned",
            vote: { ...e.vote, signature: new Uint8Array(64).fill(i) },
          });
          break;
        case "SignProposal":
          this.at(this.now, i, {
            type: "ProposalSigned",
            proposal: { ...e.proposal, signature: new Uint8Array(64) },
          });
          break;
        case "ReapProposalBlock":
          this.at(this.now, i, {
            type: "ProposalBlockReaped",
            height: e.height,
            round: e.round,
            txs: [new Uint8Array([i, e.round, Number(e.height)])],
            evidence: [],
          });
          break;
        case "ValidateBlock":
          this.at(this.now, i, { type: "BlockValidated", height: e.height, blockHash: e.blockId.hash });
          break;
        case "BroadcastProposal":
          sent.proposals.set(`${e.proposal.height}/${e.proposal.round}`, e.proposal);
          this.broadcast(i, { type: "ProposalReceived", proposal: e.proposal, from: `n${i}` });
          break;
        case "BroadcastBlockPart":
          sent.parts.set(`${e.height}/${e.round}/${e.part.index}`, {
            height: e.height,
            round: e.round,
            part: e.part,
          });
          this.broadcast(i, {
            type: "BlockPartReceived",
            height: e.height,
            round: e.round,
            part: e.part,
            from: `n${i}`,
          });
          break;
        case "BroadcastVote": {
          const v = e.vote;
          sent.votes.set(`${v.height}/${v.round}/${v.type}`, v);
          if (this.faults.equivocator && i === 3 && v.type === 1 && v.blockId.hash.length > 0) {
            const nil = {
              ...v,
              blockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
            };
            this.send(i, 0, { type: "VoteReceived", vote: v, from: "n3" });
            this.send(i, 1, { type: "VoteReceived", vote: nil, from: "n3" });
            this.send(i, 2, { type: "VoteReceived", vote: v, from: "n3" });
            this.send(i, 2, { type: "VoteReceived", vote: nil, from: "n3" });
          } else {
            this.broadcast(i, { type: "VoteReceived", vote: v, from: `n${i}` });
          }
          break;
        }
        case "CommitBlock": {
          const hash = Buffer.from(e.blockId.hash).toString("hex");
          const earlier = this.decided.get(e.height);
          assert.ok(
            earlier === undefined || earlier === hash,
            `two different blocks decided at height ${e.height}`,
          );
          this.decided.set(e.height, hash);
          const held: HeldBlock = {
            block: e.block,
            blockId: e.blockId,
            parts: node.state.proposalBlock!.parts,
          };
          const precommits = node.state.votes.rounds[e.round]!.precommits.votes.filter(
            (v): v is Vote => v !== undefined,
          );
          this.commits.set(e.height, { votes: precommits, held });
          this.at(this.now + 5, i, {
            type: "BlockExecuted",
            height: e.height,
            chainState: chainAfter(node.state.chain, held),
          });
          break;
        }
        case "ReportConflictingVotes":
          this.conflicts.push(e);
          break;
        case "Halt":
          throw new Error(`node ${i} halted: ${e.reason}`);
        default:
          break;
      }
    }
  }

  /** Re-sends to each peer what this node signed for the peer's height, or the commit it lacks. */
  private gossip(): void {
    for (let i = 0; i < this.nodes.length; i++) {
      for (let j = 0; j < this.nodes.length; j++) {
        if (i === j || !this.connected(i, j)) continue;
        const peer = this.nodes[j]!.state;
        const me = this.nodes[i]!.state;
        if (peer.height < me.height) {
          const commit = this.commits.get(peer.height);
          if (commit === undefined) continue;
          for (const vote of commit.votes) this.send(i, j, { type: "VoteReceived", vote, from: `n${i}` });
          for (const part of commit.held.parts.parts) {
            this.send(i, j, {
              type: "BlockPartReceived",
              height: peer.height,
              round: 0,
              part: part!,
              from: `n${i}`,
            });
          }
          continue;
        }
        const sent = this.sent[i]!;
        const proposal = sent.proposals.get(`${peer.height}/${peer.round}`);
        if (proposal) this.send(i, j, { type: "ProposalReceived", proposal, from: `n${i}` });
        for (const p of sent.parts.values()) {
          if (p.height === peer.height && p.round === peer.round) {
            this.send(i, j, {
              type: "BlockPartReceived",
              height: p.height,
              round: p.round,
              part: p.part,
              from: `n${i}`,
            });
          }
        }
        for (const v of sent.votes.values()) {
          if (v.height === peer.height && v.round >= peer.round - 1)
            this.send(i, j, { type: "VoteReceived", vote: v, from: `n${i}` });
        }
      }
    }
  }

  /** Replays the node's log into a fresh reducer (no effects), then resumes it. */
  private restart(i: number): void {
    const old = this.nodes[i]!;
    const fresh = new TestNode({ own: i, chain: old.chain });
    for (const input of old.log) {
      fresh.state = fresh.reducer(fresh.state, input).state;
      fresh.log.push(input);
    }
    this.nodes[i] = fresh;
    this.down.delete(i);
    this.restarts++;
    fresh.nowMs = this.now;
    this.handle(i, fresh.feed({ type: "ConsensusResumed" }));
  }

  run(untilHeight: bigint, maxVirtualMs: number, maxSteps = 60_000): void {
    let nextGossip = 300;
    for (let step = 0; step < maxSteps; step++) {
      if (this.nodes.every((n) => n.state.height > untilHeight)) return;
      // The earliest of: a queued message, a node's timer, the gossip tick.
      this.events.sort((a, b) => a.at - b.at || a.seq - b.seq);
      let timerNode: number | undefined;
      for (const [i, t] of this.timers)
        if (timerNode === undefined || t.at < this.timers.get(timerNode)!.at) timerNode = i;
      const eventAt = this.events[0]?.at ?? Number.POSITIVE_INFINITY;
      const timerAt = timerNode === undefined ? Number.POSITIVE_INFINITY : this.timers.get(timerNode)!.at;
      const soonest = Math.min(eventAt, timerAt, nextGossip);
      if (soonest > maxVirtualMs) break;
      this.now = Math.max(this.now, soonest);
      const crash = this.faults.crash;
      if (crash !== undefined && !this.crashed && soonest >= crash.atMs) {
        this.crashed = true;
        this.down.add(crash.node);
        this.timers.delete(crash.node);
        this.now = crash.atMs;
        this.at(crash.atMs + crash.downMs, crash.node, { type: "ConsensusResumed" });
        continue;
      }
      if (soonest === eventAt) {
        const e = this.events.shift()!;
        if (e.input.type === "ConsensusResumed") {
          this.restart(e.node);
          continue;
        }
        if (this.down.has(e.node)) continue;
        const node = this.nodes[e.node]!;
        node.nowMs = this.now;
        this.handle(e.node, node.feed(e.input));
      } else if (soonest === timerAt) {
        const t = this.timers.get(timerNode!)!;
        this.timers.delete(timerNode!);
        this.at(this.now, timerNode!, t.input);
      } else {
        nextGossip += 300;
        this.gossip();
      }
    }
    const heights = this.nodes.map((n) => `${n.state.height}/${n.state.round}/${n.state.step}`).join(", ");
    assert.fail(`not past height ${untilHeight} by ${this.now} ms (nodes at ${heights})`);
  }
}

describe("consensus: four reducers on a faulty network", () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: drops, delays, duplicates and a healing partition keep safety and make progress`, () => {
      const net = new LossyNetwork(prng(seed), {
        drop: 0.2,
        duplicate: 0.2,
        maxDelayMs: 400,
        partitionUntilMs: 8000,
        equivocator: false,
      });
      net.start();
      net.run(4n, 120_000);
      assert.ok(net.decided.size >= 4);
      // Replaying a node's log (thousands of inputs, in the order it folded them) gives its state.
      const original = net.nodes[seed % 4]!;
      const replica = new TestNode({ own: seed % 4, chain: genesisChain() });
      let state = replica.state;
      for (const input of original.log) state = replica.reducer(state, input).state;
      assert.deepEqual(state, original.state);
    });
  }

  it("a validator that crashes and restarts from its log catches up", () => {
    const net = new LossyNetwork(prng(11), {
      drop: 0.1,
      duplicate: 0.1,
      maxDelayMs: 200,
      partitionUntilMs: 0,
      equivocator: false,
      crash: { node: 2, atMs: 1700, downMs: 4000 },
    });
    net.start();
    net.run(5n, 120_000);
    assert.equal(net.restarts, 1);
    assert.ok(net.nodes[2]!.state.height > 5n);
  });

  it("an equivocating validator is reported and cannot break agreement", () => {
    const net = new LossyNetwork(prng(7), {
      drop: 0,
      duplicate: 0,
      maxDelayMs: 50,
      partitionUntilMs: 0,
      equivocator: true,
    });
    net.start();
    net.run(3n, 60_000);
    assert.ok(net.conflicts.length > 0, "conflicting prevotes reported");
    for (const c of net.conflicts) {
      if (c.type === "ReportConflictingVotes") assert.equal(c.voteA.validatorIndex, 3);
    }
  });
});
