// Split double votes: a Byzantine validator sends one version of its vote to some peers and a
// conflicting version to others. Whichever version arrives first, every value's tally must see the
// version for it (so a polka or a commit that needs it is not lost), the validator's power must
// count once toward the "any" thresholds, the pair must be reported once, and at most two
// versions per validator, round and type are kept.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  addVote,
  blockKeyOf,
  commitFromPrecommits,
  emptyHeightVotes,
  type HeightVotes,
  powerFor,
  precommitsIn,
  prevotesIn,
  votesFromCommit,
  weightsOf,
} from "../../src/consensus/vote-keeper/index.js";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { addressOf } from "../../src/crypto/hash.js";
import { verifyCommitSync } from "../../src/types/commit-verification.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import {
  type BlockID,
  BlockIDFlag,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { commands, only, TestNode } from "./consensus-harness.js";
import { noteNewThresholds } from "./vote-keeper-fixture.js";

const CHAIN = "split-chain";
const HEIGHT = 7n;
const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const set = ValidatorSet.create(
  keys.map((k) => ({ pubKey: { sum: { $case: "ed25519", ed25519: k.publicKey } }, votingPower: 10n })),
);
const weights = weightsOf(set.validators);
/** The key of set member `index` (set order is by address for equal powers). */
function keyOf(index: number) {
  const address = Buffer.from(set.validators[index]!.address);
  return keys.find((k) => Buffer.from(addressOf(k.publicKey)).equals(address))!;
}

function blockId(tag: number): BlockID {
  return {
    hash: new Uint8Array(32).fill(tag),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(tag + 100) },
  };
}
const NIL: BlockID = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };
const A = blockId(1);
const B = blockId(2);

function vote(index: number, type: "prevote" | "precommit", round: number, id: BlockID, stamp = 0): Vote {
  const unsigned: Vote = {
    type:
      type === "prevote" ? SignedMsgType.SIGNED_MSG_TYPE_PREVOTE : SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height: HEIGHT,
    round,
    blockId: id,
    timestamp: { seconds: 1_700_000_000n + BigInt(index), nanos: stamp },
    validatorAddress: set.validators[index]!.address,
    validatorIndex: index,
    signature: new Uint8Array(0),
  };
  return { ...unsigned, signature: signEd25519(keyOf(index).privateKey, voteSignBytes(CHAIN, unsigned)) };
}

/** Adds the votes in order; returns the final votes, the thresholds in the order they came to hold, and every outcome kind. */
function feed(list: Vote[], currentRound = 0, votes: HeightVotes = emptyHeightVotes(HEIGHT, weights)) {
  const thresholds: string[] = [];
  const outcomes: string[] = [];
  let reports = 0;
  for (const v of list) {
    const outcome = addVote(votes, v, currentRound);
    outcomes.push(outcome.kind);
    if (outcome.kind === "conflict") reports++;
    if (outcome.kind !== "added") continue;
    if (outcome.conflict !== undefined) reports++;
    votes = outcome.votes;
    noteNewThresholds(thresholds, votes, v.round, currentRound);
  }
  return { votes, thresholds, outcomes, reports };
}

describe("vote keeper: split double votes", () => {
  it("sees a polka once the second version arrives, whichever came first", () => {
    // Validator 0 prevotes A then B; 1 and 2 prevote B. B's polka needs 0's second version.
    const { votes, thresholds } = feed([
      vote(0, "prevote", 0, A),
      vote(1, "prevote", 0, B),
      vote(2, "prevote", 0, B),
      vote(0, "prevote", 0, B),
    ]);
    assert.deepEqual(thresholds, ["PolkaAny@0", "PolkaBlock@0"]);
    const tally = prevotesIn(votes, 0)!;
    assert.equal(tally.majority?.key, blockKeyOf(B));
    assert.equal(powerFor(tally, blockKeyOf(B)), 30n);
    assert.equal(powerFor(tally, blockKeyOf(A)), 10n);
    assert.equal(tally.power, 30n);
    // Other order: the same polka, seen as soon as it exists.
    const other = feed([
      vote(0, "prevote", 0, B),
      vote(1, "prevote", 0, B),
      vote(0, "prevote", 0, A),
      vote(2, "prevote", 0, B),
    ]);
    assert.deepEqual(other.thresholds, ["PolkaAny@0", "PolkaBlock@0"]);
  });

  it("counts each validator's power once toward polka any, precommit any and skip round", () => {
    // 0 votes A and B, 1 votes nil: 30 of value power but only 20 of voters, not +2/3 of 40.
    const C = blockId(3);
    for (const type of ["prevote", "precommit"] as const) {
      const { votes, thresholds } = feed([vote(0, type, 2, A), vote(0, type, 2, B), vote(1, type, 2, C)], 0);
      assert.deepEqual(thresholds, [], type);
      const tally = type === "prevote" ? prevotesIn(votes, 2)! : precommitsIn(votes, 2)!;
      assert.equal(tally.power, 20n);
      assert.equal(tally.anyMajority, false);
      assert.equal(votes.highestTwoThirdsAnyRound, -1);
      // A third voter makes +2/3 of the power: one PolkaAny/PrecommitAny and one SkipRound.
      const more = feed([vote(2, type, 2, NIL), vote(2, type, 2, C)], 0, votes);
      assert.deepEqual(more.thresholds, [
        `${type === "prevote" ? "Polka" : "Precommit"}Any@2`,
        "SkipRound@2",
      ]);
    }
  });

  it("holds PrecommitAll only when every validator precommitted, a second version adding nothing", () => {
    // 40 of value power (0's two versions) but three of the four validators: not all.
    const three = feed([
      vote(0, "precommit", 0, A),
      vote(0, "precommit", 0, NIL),
      vote(1, "precommit", 0, NIL),
      vote(2, "precommit", 0, NIL),
    ]);
    assert.deepEqual(three.thresholds, ["PrecommitAny@0"]);
    const all = feed([vote(3, "precommit", 0, NIL)], 0, three.votes);
    assert.deepEqual(all.thresholds, ["PrecommitAny@0", "PrecommitAll@0"]);
  });

  it("reports a conflicting pair once: either version again is a duplicate", () => {
    const { outcomes, reports } = feed([
      vote(0, "prevote", 0, A),
      vote(0, "prevote", 0, B),
      vote(0, "prevote", 0, B),
      vote(0, "prevote", 0, A),
      vote(0, "prevote", 0, B, 5), // re-signed with another timestamp
    ]);
    assert.deepEqual(outcomes, ["added", "added", "duplicate", "duplicate", "duplicate"]);
    assert.equal(reports, 1);
  });

  it("keeps at most two versions per validator, round and type: a third is evidence only", () => {
    const list = [vote(0, "prevote", 0, A), vote(0, "prevote", 0, B)];
    for (let tag = 3; tag < 23; tag++) list.push(vote(0, "prevote", 0, blockId(tag)));
    const { votes, outcomes } = feed(list);
    assert.deepEqual(outcomes.slice(0, 2), ["added", "added"]);
    assert.ok(outcomes.slice(2).every((k) => k === "conflict"));
    const tally = prevotesIn(votes, 0)!;
    assert.equal(tally.conflicting.length, 1);
    assert.equal(tally.blocks.length, 2);
    assert.equal(tally.power, 10n);
    const third = addVote(votes, vote(0, "prevote", 0, blockId(9)), 0);
    assert.equal(third.kind, "conflict");
    if (third.kind === "conflict") assert.deepEqual(third.existing.blockId, A);
  });

  it("assembles the commit from each validator's precommit for the decided block, and it verifies", () => {
    // 0 precommits A then B (B second), 3 precommits nil then A: B is decided with 0's second
    // version; 3's nil version goes in as NIL.
    const { votes, thresholds } = feed(
      [
        vote(0, "precommit", 1, A),
        vote(1, "precommit", 1, B),
        vote(2, "precommit", 1, B),
        vote(3, "precommit", 1, NIL),
        vote(3, "precommit", 1, A),
        vote(0, "precommit", 1, B),
      ],
      1,
    );
    assert.deepEqual(thresholds, ["PrecommitAny@1", "PrecommitAll@1", "PrecommitBlock@1", "Decision@1"]);
    assert.equal(votes.decisionRound, 1);
    const commit = commitFromPrecommits(votes, 1, B);
    assert.deepEqual(
      commit.signatures.map((s) => s.blockIdFlag),
      [
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
        BlockIDFlag.BLOCK_ID_FLAG_NIL,
      ],
    );
    verifyCommitSync(CHAIN, set, B, HEIGHT, commit);
    // A commit for A (had it been decided) takes 0's and 3's versions for A.
    const forA = commitFromPrecommits(votes, 1, A);
    assert.deepEqual(
      forA.signatures.map((s) => s.blockIdFlag),
      [
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
        BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
        BlockIDFlag.BLOCK_ID_FLAG_ABSENT,
        BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
      ],
    );
    // The stored commit rebuilds into precommits that all count for B.
    const rebuilt = precommitsIn(votesFromCommit(commit, weights), 1)!;
    assert.equal(rebuilt.majority?.key, blockKeyOf(B));
    assert.equal(powerFor(rebuilt, blockKeyOf(B)), 30n);
  });
});

describe("consensus: split double votes through the reducer", () => {
  it("a polka that needs a second version is seen, and the pair is reported once", () => {
    const node = new TestNode({ own: 3 });
    node.startRound0();
    const a = node.block(0);
    const b = node.block(0, [new Uint8Array([42])]);
    const reports: number[] = [];
    reports.push(only(node.votes([1], "prevote", 0, a.blockId), "ReportConflictingVotes").length);
    reports.push(only(node.votes([0, 2], "prevote", 0, b.blockId), "ReportConflictingVotes").length);
    const polka = () => node.state.votes.rounds[0]!.prevotes.majority?.key;
    assert.equal(polka(), undefined);
    const second = node.votes([1], "prevote", 0, b.blockId);
    reports.push(only(second, "ReportConflictingVotes").length);
    assert.equal(polka(), blockKeyOf(b.blockId));
    reports.push(only(node.votes([1], "prevote", 0, b.blockId), "ReportConflictingVotes").length);
    reports.push(only(node.votes([1], "prevote", 0, a.blockId), "ReportConflictingVotes").length);
    assert.deepEqual(reports, [0, 0, 1, 0, 0]);
    assert.ok(!commands(second).includes("Halt"));
  });
});
