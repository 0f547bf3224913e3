import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  addVote,
  blockKeyOf,
  commitFromPrecommits,
  emptyHeightVotes,
  type HeightVotes,
  MAX_ROUNDS_AHEAD,
  powerFor,
  precommitsIn,
  prevotesIn,
  votesFromCommit,
  weightsOf,
} from "../../src/consensus/vote-keeper/index.js";
import {
  type BlockID,
  BlockIDFlag,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { noteNewThresholds } from "./vote-keeper-fixture.js";

const validators = [10n, 10n, 10n, 10n].map((votingPower, i) => ({
  address: new Uint8Array(20).fill(i + 1),
  votingPower,
}));
const weights = weightsOf(validators);

function blockId(tag: number): BlockID {
  return {
    hash: new Uint8Array(32).fill(tag),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(tag + 100) },
  };
}
const NIL: BlockID = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };

function vote(index: number, type: "prevote" | "precommit", round: number, id: BlockID, height = 5n): Vote {
  return {
    type:
      type === "prevote" ? SignedMsgType.SIGNED_MSG_TYPE_PREVOTE : SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height,
    round,
    blockId: id,
    timestamp: { seconds: 1000n + BigInt(index), nanos: 0 },
    validatorAddress: validators[index]!.address,
    validatorIndex: index,
    signature: new Uint8Array(64).fill(index),
  };
}

function addAll(votes: HeightVotes, list: Vote[], currentRound = 0) {
  const kinds: string[] = [];
  for (const v of list) {
    const outcome = addVote(votes, v, currentRound);
    assert.equal(outcome.kind, "added");
    if (outcome.kind !== "added") throw new Error("unreachable");
    votes = outcome.votes;
    noteNewThresholds(kinds, votes, v.round, currentRound);
  }
  return { votes, kinds };
}

describe("vote keeper", () => {
  it("holds a polka for a block only once more than 2/3 of the power prevoted it", () => {
    const A = blockId(1);
    const { votes, kinds } = addAll(emptyHeightVotes(5n, weights), [
      vote(0, "prevote", 0, A),
      vote(1, "prevote", 0, A),
      vote(2, "prevote", 0, A),
    ]);
    // 20/40 is not enough, 30/40 is: both "any" and "for A" cross on the third vote.
    assert.deepEqual(kinds, ["PolkaAny@0", "PolkaBlock@0"]);
    assert.equal(prevotesIn(votes, 0)!.majority!.power, 30n);
  });

  it("holds polka any without a block majority on a split, then a nil polka", () => {
    const A = blockId(1);
    const { kinds } = addAll(emptyHeightVotes(5n, weights), [
      vote(0, "prevote", 0, A),
      vote(1, "prevote", 0, NIL),
      vote(2, "prevote", 0, NIL),
      vote(3, "prevote", 0, NIL),
    ]);
    assert.deepEqual(kinds, ["PolkaAny@0", "PolkaNil@0"]);
  });

  it("holds precommit any, precommits for the block, the decision and PrecommitAll", () => {
    const A = blockId(1);
    const { votes, kinds } = addAll(emptyHeightVotes(5n, weights), [
      vote(0, "precommit", 0, A),
      vote(1, "precommit", 0, A),
      vote(2, "precommit", 0, A),
      vote(3, "precommit", 0, NIL),
    ]);
    assert.deepEqual(kinds, ["PrecommitAny@0", "PrecommitBlock@0", "Decision@0", "PrecommitAll@0"]);
    assert.equal(votes.decisionRound, 0);
    const nilKinds = addAll(
      emptyHeightVotes(5n, weights),
      [0, 1, 2].map((i) => vote(i, "precommit", 0, NIL)),
    ).kinds;
    // +2/3 precommitted nil: only precommit any (L47) holds; nil is no decision.
    assert.deepEqual(nilKinds, ["PrecommitAny@0"]);
  });

  it("holds SkipRound when +2/3 of any votes arrive for a later round", () => {
    const { votes, kinds } = addAll(
      emptyHeightVotes(5n, weights),
      [vote(0, "prevote", 3, blockId(1)), vote(1, "prevote", 3, NIL), vote(2, "prevote", 3, blockId(2))],
      1,
    );
    assert.deepEqual(kinds, ["PolkaAny@3", "SkipRound@3"]);
    assert.equal(votes.highestTwoThirdsAnyRound, 3);
  });

  it("ignores a duplicate and counts a conflicting vote toward its own value only", () => {
    const A = blockId(1);
    let votes = emptyHeightVotes(5n, weights);
    const first = addVote(votes, vote(0, "prevote", 0, A), 0);
    assert.equal(first.kind, "added");
    if (first.kind === "added") votes = first.votes;
    assert.equal(addVote(votes, vote(0, "prevote", 0, A), 0).kind, "duplicate");
    const conflict = addVote(votes, vote(0, "prevote", 0, blockId(2)), 0);
    assert.equal(conflict.kind, "added");
    if (conflict.kind === "added") {
      assert.deepEqual(conflict.conflict?.existing.blockId, A);
      assert.equal(prevotesIn(conflict.votes, 0)!.power, 10n);
      assert.equal(powerFor(prevotesIn(conflict.votes, 0)!, blockKeyOf(blockId(2))), 10n);
    }
    assert.equal(prevotesIn(votes, 0)!.power, 10n);
    // Same validator, other type or other round: no conflict.
    for (const other of [vote(0, "precommit", 0, blockId(2)), vote(0, "prevote", 1, blockId(2))]) {
      const outcome = addVote(votes, other, 0);
      assert.equal(outcome.kind, "added");
      if (outcome.kind === "added") assert.equal(outcome.conflict, undefined);
    }
  });

  it("rejects votes that cannot count, naming why", () => {
    const votes = emptyHeightVotes(5n, weights);
    const cases: [Vote, RegExp][] = [
      [vote(0, "prevote", 0, NIL, 6n), /height 6/],
      [{ ...vote(0, "prevote", 0, NIL), validatorIndex: 4 }, /index 4 is outside/],
      [{ ...vote(0, "prevote", 0, NIL), validatorAddress: new Uint8Array(20) }, /address does not match/],
      [{ ...vote(0, "prevote", 0, NIL), type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL }, /neither prevote/],
      [vote(0, "prevote", MAX_ROUNDS_AHEAD + 1, NIL), /rounds ahead/],
      [vote(0, "prevote", -1, NIL), /negative/],
    ];
    for (const [v, reason] of cases) {
      const outcome = addVote(votes, v, 0);
      assert.equal(outcome.kind, "rejected");
      if (outcome.kind === "rejected") assert.match(outcome.reason, reason);
    }
  });

  it("keeps earlier states unchanged (immutable tallies)", () => {
    const votes = emptyHeightVotes(5n, weights);
    const outcome = addVote(votes, vote(0, "prevote", 0, NIL), 0);
    assert.equal(outcome.kind, "added");
    assert.equal(votes.rounds.length, 0);
    assert.equal(prevotesIn(votes, 0), undefined);
  });

  it("builds a commit (COMMIT, NIL, ABSENT) and rebuilds the precommits from it", () => {
    const A = blockId(1);
    const { votes } = addAll(emptyHeightVotes(5n, weights), [
      vote(0, "precommit", 2, A),
      vote(1, "precommit", 2, NIL),
      vote(3, "precommit", 2, A),
    ]);
    const commit = commitFromPrecommits(votes, 2, A);
    assert.deepEqual(
      commit.signatures.map((s) => s.blockIdFlag),
      [
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
        BlockIDFlag.BLOCK_ID_FLAG_NIL,
        BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      ],
    );
    assert.equal(commit.signatures[2]!.timestamp.seconds, -62135596800n);
    const rebuilt = votesFromCommit(commit, weights);
    assert.deepEqual(precommitsIn(rebuilt, 2)!.votes, precommitsIn(votes, 2)!.votes);
  });
});
