// decode(encode(x)) = x for the tendermint.types messages, and encoding is stable across a round
// trip (the bytes of the decoded value equal the original bytes).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import { PublicKey } from "../../src/wire/generated/tendermint/crypto/keys.js";
import { Proof } from "../../src/wire/generated/tendermint/crypto/proof.js";
import { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { Evidence, EvidenceList } from "../../src/wire/generated/tendermint/types/evidence.js";
import { ConsensusParams } from "../../src/wire/generated/tendermint/types/params.js";
import {
  BlockID,
  Commit,
  CommitSig,
  Header,
  Part,
  PartSetHeader,
  Proposal,
  Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import * as arb from "./codec-arbitraries.js";

export function roundTrips<T>(codec: arb.Codec<T>, arbitrary: fc.Arbitrary<T>, numRuns = 100): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      const bytes = codec.encode(value).finish();
      const decoded = codec.decode(bytes);
      assert.deepEqual(arb.normalise(decoded), arb.normalise(value));
      assert.equal(
        Buffer.from(codec.encode(decoded).finish()).toString("hex"),
        Buffer.from(bytes).toString("hex"),
      );
    }),
    { numRuns },
  );
}

describe("tendermint.types codecs round-trip", () => {
  it("Timestamp", () => roundTrips(Timestamp, arb.timestamp));
  it("PartSetHeader", () => roundTrips(PartSetHeader, arb.partSetHeader));
  it("BlockID", () => roundTrips(BlockID, arb.blockId));
  it("Proof", () => roundTrips(Proof, arb.proof));
  it("Part", () => roundTrips(Part, arb.part));
  it("Vote", () => roundTrips(Vote, arb.vote, 200));
  it("Proposal", () => roundTrips(Proposal, arb.proposal, 200));
  it("Header", () => roundTrips(Header, arb.header));
  it("CommitSig", () => roundTrips(CommitSig, arb.commitSig));
  it("Commit", () => roundTrips(Commit, arb.commit));
  it("PublicKey", () => roundTrips(PublicKey, arb.publicKey));
  it("ValidatorSet", () => roundTrips(ValidatorSet, arb.validatorSet, 50));
  it("Evidence", () => roundTrips(Evidence, arb.evidence, 50));
  it("EvidenceList", () =>
    roundTrips(EvidenceList, fc.record({ evidence: arb.smallList(arb.evidence, 2) }), 30));
  it("Block", () => roundTrips(Block, arb.block, 50));
  it("ConsensusParams", () => roundTrips(ConsensusParams, arb.consensusParams));
});

describe("non-nullable fields", () => {
  it("an empty Vote decodes with a zero BlockID and timestamp, which it then always encodes", () => {
    const v = Vote.decode(new Uint8Array(0));
    assert.deepEqual(
      arb.normalise(v.blockId),
      arb.normalise({ hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } }),
    );
    assert.deepEqual(v.timestamp, { seconds: 0n, nanos: 0 });
    // block_id (4) with its empty part-set header, timestamp (5) empty
    assert.equal(Buffer.from(Vote.encode(v).finish()).toString("hex"), "220212002a00");
  });
});
