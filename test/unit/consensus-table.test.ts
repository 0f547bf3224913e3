// One height of a validator that is not the proposer, as a table {input, expected effects,
// expected state}, folded input by input: the happy path through L11, L22, L36 and L49.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ConsensusEffect, type ConsensusState, RoundStep } from "../../src/consensus/index.js";
import { chainAfter, commands, type InputWithoutTime, only, TestNode } from "./consensus-harness.js";

interface Row {
  what: string;
  input: (last: readonly ConsensusEffect[]) => InputWithoutTime;
  effects: string[];
  state?: Partial<Pick<ConsensusState, "height" | "round" | "step" | "lockedRound" | "validRound">>;
}

const node = new TestNode({ own: 3 });
const block = node.block(0);
const ownVote = (last: readonly ConsensusEffect[]): InputWithoutTime => {
  const [sign] = only(last, "SignVote");
  if (sign === undefined) throw new Error("the previous row asked for no signature");
  return { type: "VoteSigned", vote: { ...sign.vote, signature: new Uint8Array(64).fill(3) } };
};
const vote = (i: number, type: "prevote" | "precommit"): InputWithoutTime => ({
  type: "VoteReceived",
  vote: node.vote(i, type, 0, block.blockId),
  from: `peer${i}`,
});

const rows: Row[] = [
  {
    what: "start",
    input: () => ({
      type: "ConsensusStarted",
      chainState: node.chain,
      lastCommit: undefined,
      lastBlockAppHash: new Uint8Array(0),
    }),
    effects: ["ScheduleTimeout"],
    state: { height: 1n, round: 0, step: RoundStep.NewHeight },
  },
  {
    what: "timeout_commit: L11 StartRound(0)",
    input: () => ({ type: "TimeoutElapsed", height: 1n, round: 0, step: RoundStep.NewHeight }),
    effects: ["ScheduleTimeout"],
    state: { step: RoundStep.Propose },
  },
  {
    what: "the proposal",
    input: () => ({ type: "ProposalReceived", proposal: node.proposal(block, 0), from: "peer0" }),
    effects: [],
    state: { step: RoundStep.Propose },
  },
  {
    what: "its only part completes the block",
    input: () => ({
      type: "BlockPartReceived",
      height: 1n,
      round: 0,
      part: block.parts.parts[0]!,
      from: "peer0",
    }),
    effects: ["ValidateBlock"],
  },
  {
    what: "valid: L22 prevote",
    input: () => ({ type: "BlockValidated", height: 1n, blockHash: block.blockId.hash }),
    effects: ["SignVote"],
    state: { step: RoundStep.Prevote },
  },
  { what: "our prevote signed", input: ownVote, effects: ["BroadcastVote"] },
  { what: "prevote of validator 0", input: () => vote(0, "prevote"), effects: [] },
  {
    what: "prevote of validator 1: polka, L36 lock and precommit",
    input: () => vote(1, "prevote"),
    effects: ["SignVote"],
    state: { step: RoundStep.Precommit, lockedRound: 0, validRound: 0 },
  },
  { what: "our precommit signed", input: ownVote, effects: ["BroadcastVote"] },
  { what: "precommit of validator 0", input: () => vote(0, "precommit"), effects: [] },
  {
    what: "precommit of validator 1: L49 commit",
    input: () => vote(1, "precommit"),
    effects: ["CommitBlock"],
    state: { step: RoundStep.Commit },
  },
  {
    what: "executed: the next height",
    input: () => ({ type: "BlockExecuted", height: 1n, chainState: chainAfter(node.chain, block) }),
    effects: ["ScheduleTimeout"],
    state: { height: 2n, round: 0, step: RoundStep.NewHeight, lockedRound: -1, validRound: -1 },
  },
];

describe("consensus: one height as a table", () => {
  it("folds each row's input into its expected effects and state", () => {
    let last: readonly ConsensusEffect[] = [];
    for (const row of rows) {
      last = node.feed(row.input(last));
      assert.deepEqual(commands(last), row.effects, row.what);
      for (const [key, value] of Object.entries(row.state ?? {})) {
        assert.equal(node.state[key as keyof ConsensusState], value, `${row.what}: ${key}`);
      }
    }
  });
});
