// Sign bytes are remembered per vote or proposal object (src/wire/sign-bytes.ts): the same object
// is answered from the memo, the answer is always what encoding it gives, and another chain id
// or another object (equal or not) is encoded for itself.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CanonicalProposal, CanonicalVote } from "../../src/wire/generated/tendermint/types/canonical.js";
import { type Proposal, SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
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
});
