// Sign bytes are remembered per vote or proposal object (src/wire/sign-bytes.ts): the same object
// is answered from the memo, the answer is always what encoding it gives, and another chain id
// or another object (equal or not) is encoded for itself.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { commitVote, commitVoteSignBytes } from "../../src/types/commit-verification.js";
import { CanonicalProposal, CanonicalVote } from "../../src/wire/generated/tendermint/types/canonical.js";
import {
  BlockIDFlag,
  type Commit,
  type Proposal,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import {
  canonicalProposal,
  canonicalVote,
  proposalSignBytes,
  voteSignBytes,
} from "../../src/wire/sign-bytes.js";
import { lengthPrefixed } from "../../src/wire/varint.js";

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);
const vote = (round: number): Vote => ({
  type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
  height: 7n,
  round,
  blockId: { hash: bytes(32, 1), partSetHeader: { total: 1, hash: bytes(32, 2) } },
  timestamp: { seconds: 1_700_000_000n, nanos: 5 },
  validatorAddress: bytes(20, 3),
  validatorIndex: 2,
  signature: bytes(64, 4),
});
const proposal: Proposal = {
  type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
  height: 7n,
  round: 1,
  polRound: -1,
  blockId: { hash: bytes(32, 1), partSetHeader: { total: 1, hash: bytes(32, 2) } },
  timestamp: { seconds: 1_700_000_000n, nanos: 5 },
  signature: bytes(64, 4),
};
const encodedVote = (chainId: string, v: Vote) =>
  lengthPrefixed(CanonicalVote.encode(canonicalVote(chainId, v)).finish());
const encodedProposal = (chainId: string, p: Proposal) =>
  lengthPrefixed(CanonicalProposal.encode(canonicalProposal(chainId, p)).finish());

describe("sign bytes memo", () => {
  it("answers the same vote object from the memo, with its encoding", () => {
    const v = vote(0);
    const first = voteSignBytes("chain-a", v);
    assert.deepEqual(first, encodedVote("chain-a", v));
    assert.equal(voteSignBytes("chain-a", v), first, "the remembered bytes, not a new encoding");
  });

  it("encodes a vote again for another chain id, and keeps each chain's bytes right", () => {
    const v = vote(0);
    const a = voteSignBytes("chain-a", v);
    const b = voteSignBytes("chain-b", v);
    assert.deepEqual(b, encodedVote("chain-b", v));
    assert.notDeepEqual(a, b);
    assert.deepEqual(voteSignBytes("chain-a", v), encodedVote("chain-a", v));
  });

  it("encodes each object for itself: an equal copy gets equal bytes, another vote its own", () => {
    const v = vote(0);
    const copy = { ...v };
    assert.deepEqual(voteSignBytes("c", copy), voteSignBytes("c", v));
    const other = vote(1);
    assert.deepEqual(voteSignBytes("c", other), encodedVote("c", other));
    assert.notDeepEqual(voteSignBytes("c", other), voteSignBytes("c", v));
  });

  it("remembers proposals the same way", () => {
    const first = proposalSignBytes("chain-a", proposal);
    assert.deepEqual(first, encodedProposal("chain-a", proposal));
    assert.equal(proposalSignBytes("chain-a", proposal), first);
    assert.deepEqual(proposalSignBytes("chain-b", proposal), encodedProposal("chain-b", proposal));
  });

  it("answers a commit signature's bytes from the memo, and encodes again when the commit or a field it signs is replaced", () => {
    const commit: Commit = {
      height: 7n,
      round: 1,
      blockId: { hash: bytes(32, 1), partSetHeader: { total: 1, hash: bytes(32, 2) } },
      signatures: [0, 1].map((i) => ({
        blockIdFlag: i === 0 ? BlockIDFlag.BLOCK_ID_FLAG_COMMIT : BlockIDFlag.BLOCK_ID_FLAG_NIL,
        validatorAddress: bytes(20, i),
        timestamp: { seconds: 1_700_000_000n, nanos: i },
        signature: bytes(64, i),
      })),
    };
    const fresh = (c: Commit, i: number) => encodedVote("chain-a", commitVote(c, i));
    for (const i of [0, 1]) {
      const first = commitVoteSignBytes("chain-a", commit, i);
      assert.deepEqual(first, fresh(commit, i));
      assert.equal(commitVoteSignBytes("chain-a", commit, i), first, "the remembered bytes");
      assert.deepEqual(
        commitVoteSignBytes("chain-b", commit, i),
        encodedVote("chain-b", commitVote(commit, i)),
      );
    }
    // The same CommitSig objects in another commit (another round), or with a new timestamp or flag.
    const otherRound = { ...commit, round: 2 };
    assert.deepEqual(commitVoteSignBytes("chain-a", otherRound, 0), fresh(otherRound, 0));
    const sig = commit.signatures[1]!;
    const retimed = {
      ...commit,
      signatures: [commit.signatures[0]!, { ...sig, timestamp: { seconds: 1n, nanos: 0 } }],
    };
    assert.deepEqual(commitVoteSignBytes("chain-a", retimed, 1), fresh(retimed, 1));
    const replaced = { ...commit, blockId: { ...commit.blockId, hash: bytes(32, 9) } };
    assert.deepEqual(commitVoteSignBytes("chain-a", replaced, 0), fresh(replaced, 0));
    assert.notDeepEqual(fresh(replaced, 0), fresh(commit, 0));
  });
});
