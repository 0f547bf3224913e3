// Data, commit, validator-set, consensus-params, results and evidence hashes against reference
// §7.6 and §10.7.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addressOf, sha256 } from "../../src/crypto/hash.js";
import { emptyHash, leafHash, merkleRoot } from "../../src/crypto/merkle.js";
import { absentCommitSig, emptyCommit } from "../../src/types/commit.js";
import { defaultConsensusParams } from "../../src/types/consensus-params.js";
import { goZeroTime } from "../../src/types/time.js";
import { DuplicateVoteEvidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import { HashedParams } from "../../src/wire/generated/tendermint/types/params.js";
import { BlockIDFlag, SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
import { SimpleValidator } from "../../src/wire/generated/tendermint/types/validator.js";
import {
  commitHash,
  consensusParamsHash,
  dataHash,
  duplicateVoteEvidenceHash,
  evidenceHash,
  headerHash,
  lastResultsHash,
  lightClientAttackEvidenceHash,
  txHash,
  validatorSetHash,
} from "../../src/wire/hashes.js";
import { encodeZigzagVarint } from "../../src/wire/varint.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const utf8 = (s: string) => new TextEncoder().encode(s);
const EMPTY_TREE = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const EMPTY_LEAF = "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d";

const testPubKey = Buffer.from("AT/+aaL1eB0477Mud9JMm8Sh8BIvOYlPGC9KkIUmFaE=", "base64");

describe("validator set hash (reference §10.7)", () => {
  const validator = {
    pubKey: { sum: { $case: "ed25519" as const, ed25519: new Uint8Array(testPubKey) } },
    votingPower: 10n,
  };

  it("SimpleValidator bytes", () => {
    assert.equal(
      hex(SimpleValidator.encode(validator).finish()),
      "0a220a20013ffe69a2f5781d38efb32e77d24c9bc4a1f0122f39894f182f4a90852615a1100a",
    );
  });

  it("hash of the single test validator with power 10", () => {
    assert.equal(
      hex(validatorSetHash([validator])).toUpperCase(),
      "8C591E1C1B36B19BD29F16971023819E0C2CCAF634CDAA81ECDD30337DCC078D",
    );
  });

  it("address and node ID of the test key", () => {
    assert.equal(
      hex(addressOf(new Uint8Array(testPubKey))).toUpperCase(),
      "A3258DCBF45DCA0DF052981870F2D1441A36D145",
    );
  });

  it("the empty set hashes to the empty tree", () => assert.equal(hex(validatorSetHash([])), EMPTY_TREE));
});

describe("consensus params hash (reference §7.6)", () => {
  it("default params", () => {
    const params = defaultConsensusParams();
    assert.equal(
      hex(
        HashedParams.encode({
          blockMaxBytes: params.block.maxBytes,
          blockMaxGas: params.block.maxGas,
        }).finish(),
      ),
      "088080c00a10ffffffffffffffffff01",
    );
    assert.equal(
      hex(consensusParamsHash(params)).toUpperCase(),
      "048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F",
    );
  });

  it("ignores everything but block max_bytes and max_gas", () => {
    const params = defaultConsensusParams();
    const other = { ...params, evidence: { ...params.evidence, maxBytes: 5n }, version: { appVersion: 9n } };
    assert.deepEqual(consensusParamsHash(other), consensusParamsHash(params));
  });
});

describe("data hash", () => {
  it("is the merkle root over tx hashes", () => {
    const txs = [utf8("a"), utf8("bb"), utf8("ccc")];
    assert.deepEqual(dataHash(txs), merkleRoot(txs.map((tx) => sha256(tx))));
    assert.equal(hex(txHash(utf8("Hello World"))), hex(sha256(utf8("Hello World"))));
  });

  it("matches the BlockResponse vector's data hash", () => {
    assert.equal(
      hex(dataHash([utf8("Hello World")])),
      "c4da88e876062aa1543400d50d0eaa0dac88096057949cfb7bca7f3a48c04bf9",
    );
  });

  it("no txs gives the empty tree", () => assert.equal(hex(dataHash([])), EMPTY_TREE));
});

describe("last commit hash", () => {
  it("the empty commit at the initial height hashes to the empty tree", () => {
    assert.equal(hex(commitHash(emptyCommit())), EMPTY_TREE);
    assert.equal(commitHash(undefined).length, 0); // Go: a nil commit has a nil hash
  });

  it("an absent signature still encodes its zero-time timestamp", () => {
    // block_id_flag 1, timestamp field 3 with Go's zero time
    const bytes = "0801" + "1a0b088092b8c398feffffff01";
    assert.equal(
      hex(
        commitHash({ height: 1n, round: 0, blockId: emptyCommit().blockId, signatures: [absentCommitSig()] }),
      ),
      hex(leafHash(Buffer.from(bytes, "hex"))),
    );
  });
});

describe("last results hash", () => {
  it("a single all-zero result is an empty leaf", () => {
    assert.equal(
      hex(lastResultsHash([{ code: 0, data: new Uint8Array(0), gasWanted: 0n, gasUsed: 0n }])),
      EMPTY_LEAF,
    );
  });

  it("no results give the empty tree", () => assert.equal(hex(lastResultsHash([])), EMPTY_TREE));

  it("covers code, data, gas_wanted and gas_used only", () => {
    const r = { code: 1, data: Uint8Array.of(9), gasWanted: 3n, gasUsed: 2n };
    assert.equal(hex(lastResultsHash([r])), hex(leafHash(Buffer.from("080112010928033002", "hex"))));
  });
});

describe("evidence hashes", () => {
  const vote = (hash: number) => ({
    type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
    height: 5n,
    round: 0,
    blockId: {
      hash: new Uint8Array(32).fill(hash),
      partSetHeader: { total: 1, hash: new Uint8Array(32).fill(hash) },
    },
    timestamp: goZeroTime(),
    validatorAddress: new Uint8Array(20).fill(7),
    validatorIndex: 0,
    signature: new Uint8Array(64).fill(1),
  });
  const dve: DuplicateVoteEvidence = {
    voteA: vote(1),
    voteB: vote(2),
    totalVotingPower: 30n,
    validatorPower: 10n,
    timestamp: { seconds: 1000n, nanos: 0 },
  };

  it("no evidence gives the empty tree", () => assert.equal(hex(evidenceHash([])), EMPTY_TREE));

  it("leaves are the concrete message, not the Evidence oneof", () => {
    const concrete = DuplicateVoteEvidence.encode(dve).finish();
    assert.deepEqual(
      evidenceHash([{ sum: { $case: "duplicateVoteEvidence", duplicateVoteEvidence: dve } }]),
      merkleRoot([concrete]),
    );
    assert.deepEqual(duplicateVoteEvidenceHash(dve), sha256(concrete));
  });

  it("light client attack hash keeps v0.34's 31-byte quirk", () => {
    const header = {
      version: { block: 11n, app: 0n },
      chainId: "c",
      height: 10n,
      time: { seconds: 5n, nanos: 0 },
      lastBlockId: emptyCommit().blockId,
      lastCommitHash: new Uint8Array(0),
      dataHash: new Uint8Array(0),
      validatorsHash: new Uint8Array(32).fill(3),
      nextValidatorsHash: new Uint8Array(0),
      consensusHash: new Uint8Array(0),
      appHash: new Uint8Array(0),
      lastResultsHash: new Uint8Array(0),
      evidenceHash: new Uint8Array(0),
      proposerAddress: new Uint8Array(0),
    };
    const lca = {
      conflictingBlock: { signedHeader: { header, commit: undefined }, validatorSet: undefined },
      commonHeight: 7n,
      byzantineValidators: [],
      totalVotingPower: 10n,
      timestamp: { seconds: 5n, nanos: 0 },
    };
    const buf = new Uint8Array(33);
    buf.set(headerHash(header).subarray(0, 31), 0);
    buf.set(encodeZigzagVarint(7n), 32);
    assert.equal(hex(encodeZigzagVarint(7n)), "0e");
    assert.deepEqual(lightClientAttackEvidenceHash(lca), sha256(buf));
  });
});

describe("merkle primitives", () => {
  it("empty hash", () => assert.equal(hex(emptyHash()), EMPTY_TREE));
  it("commit sig flags keep v0.34 numbers", () => {
    assert.equal(BlockIDFlag.BLOCK_ID_FLAG_ABSENT, 1);
    assert.equal(BlockIDFlag.BLOCK_ID_FLAG_COMMIT, 2);
    assert.equal(BlockIDFlag.BLOCK_ID_FLAG_NIL, 3);
  });
});
