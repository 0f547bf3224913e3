// Validation of decoded messages: valid values pass, and each broken field is refused with a
// TypesError naming that field.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { zeroBlockId } from "../../src/types/block-id.js";
import { absentCommitSig } from "../../src/types/commit.js";
import { TypesError } from "../../src/types/errors.js";
import { makeDuplicateVoteEvidence, wrapDuplicateVoteEvidence } from "../../src/types/evidence.js";
import { splitIntoParts } from "../../src/types/part-set.js";
import { validateBlock, validateHeader } from "../../src/types/validate-block.js";
import { validateCommit, validateCommitSig } from "../../src/types/validate-commit.js";
import {
  validateDuplicateVoteEvidence,
  validateEvidence,
  validateLightClientAttackEvidence,
} from "../../src/types/validate-evidence.js";
import { validatePart } from "../../src/types/validate-part.js";
import { validateProposal } from "../../src/types/validate-proposal.js";
import { validatePublicKey } from "../../src/types/validate-public-key.js";
import { validateVote } from "../../src/types/validate-vote.js";
import { BlockIDFlag } from "../../src/wire/generated/tendermint/types/types.js";
import { headerHash } from "../../src/wire/hashes.js";
import * as fx from "./types-fixtures.js";

function refused(fn: () => void, field: string, code = "TYPES_INVALID_FIELD"): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof TypesError, `expected TypesError, got ${error}`);
    assert.equal(error.code, code);
    assert.equal(error.field, field);
    assert.ok(error.message.startsWith(field), error.message);
    return true;
  });
}

describe("validateVote", () => {
  it("accepts a signed precommit and a nil prevote", () => {
    validateVote(fx.signedVote());
    validateVote(fx.signedVote({ type: 1, blockId: zeroBlockId() }));
  });
  const cases: [string, Parameters<typeof fx.signedVote>[0], string][] = [
    ["proposal type", { type: 32 }, "vote.type"],
    ["zero height", { height: 0n }, "vote.height"],
    ["negative round", { round: -1 }, "vote.round"],
    ["short block hash", { blockId: { ...fx.blockId, hash: new Uint8Array(31) } }, "vote.blockId.hash"],
    [
      "incomplete block id",
      { blockId: { ...fx.blockId, partSetHeader: { total: 0, hash: new Uint8Array(0) } } },
      "vote.blockId",
    ],
    ["19-byte address", { validatorAddress: new Uint8Array(19) }, "vote.validatorAddress"],
    ["negative index", { validatorIndex: -1 }, "vote.validatorIndex"],
    ["bad nanos", { timestamp: { seconds: 1n, nanos: 1_000_000_000 } }, "vote.timestamp.nanos"],
  ];
  for (const [name, fields, field] of cases)
    it(`refuses ${name}`, () => refused(() => validateVote(fx.signedVote(fields)), field));
  it("refuses missing and oversized signatures", () => {
    refused(() => validateVote({ ...fx.signedVote(), signature: new Uint8Array(0) }), "vote.signature");
    refused(() => validateVote({ ...fx.signedVote(), signature: new Uint8Array(65) }), "vote.signature");
  });
});

describe("validateProposal", () => {
  it("accepts a proposal and one with a POL round", () => {
    validateProposal(fx.proposal());
    validateProposal(fx.proposal({ round: 3, polRound: 1 }));
  });
  it("refuses a wrong type, a POL round at or above the round, below -1, and a nil block", () => {
    refused(() => validateProposal(fx.proposal({ type: 1 })), "proposal.type");
    refused(() => validateProposal(fx.proposal({ polRound: 1 })), "proposal.polRound");
    refused(() => validateProposal(fx.proposal({ polRound: -2 })), "proposal.polRound");
    refused(() => validateProposal(fx.proposal({ blockId: zeroBlockId() })), "proposal.blockId");
  });
});

describe("validateCommit and CommitSig", () => {
  it("accepts a commit and the empty initial commit", () => {
    validateCommit(fx.commit());
    validateCommit(fx.emptyCommit());
    validateCommitSig(absentCommitSig());
  });
  it("refuses a nil block id, no signatures, and malformed entries", () => {
    refused(() => validateCommit({ ...fx.commit(), blockId: zeroBlockId() }), "commit.blockId");
    refused(() => validateCommit({ ...fx.commit(), signatures: [] }), "commit.signatures");
    const sig = fx.commit().signatures[0]!;
    refused(
      () => validateCommit({ ...fx.commit(), signatures: [{ ...sig, validatorAddress: new Uint8Array(3) }] }),
      "commit.signatures[0].validatorAddress",
    );
    refused(
      () => validateCommitSig({ ...absentCommitSig(), signature: new Uint8Array(64) }),
      "commitSig.signature",
    );
    refused(() => validateCommitSig({ ...sig, blockIdFlag: 7 as BlockIDFlag }), "commitSig.blockIdFlag");
    refused(
      () => validateCommitSig({ ...sig, blockIdFlag: BlockIDFlag.BLOCK_ID_FLAG_UNKNOWN }),
      "commitSig.blockIdFlag",
    );
  });
});

describe("validateHeader and validateBlock", () => {
  it("accepts a block made by makeBlock", () => validateBlock(fx.block()));
  it("refuses header fields of the wrong size or version", () => {
    const h = fx.block().header;
    refused(() => validateHeader({ ...h, version: { block: 10n, app: 0n } }), "header.version.block");
    refused(() => validateHeader({ ...h, chainId: "x".repeat(51) }), "header.chainId");
    refused(() => validateHeader({ ...h, height: 0n }), "header.height");
    refused(() => validateHeader({ ...h, dataHash: new Uint8Array(5) }), "header.dataHash");
    refused(() => validateHeader({ ...h, validatorsHash: new Uint8Array(5) }), "header.validatorsHash");
    refused(() => validateHeader({ ...h, proposerAddress: new Uint8Array(32) }), "header.proposerAddress");
  });
  it("refuses hashes that do not match the contents", () => {
    const b = fx.block();
    refused(
      () => validateBlock({ ...b, data: { txs: [Uint8Array.of(9)] } }),
      "block.header.dataHash",
      "TYPES_HASH_MISMATCH",
    );
    refused(
      () => {
        const sig = b.lastCommit!.signatures[0]!;
        const tampered = { ...sig, timestamp: { seconds: sig.timestamp.seconds + 1n, nanos: 0 } };
        validateBlock({ ...b, lastCommit: { ...b.lastCommit!, signatures: [tampered] } });
      },
      "block.header.lastCommitHash",
      "TYPES_HASH_MISMATCH",
    );
    refused(() => validateBlock({ ...b, lastCommit: undefined }), "block.lastCommit");
  });
});

describe("validatePart", () => {
  it("accepts a real part and refuses a bad proof shape", () => {
    const { parts } = splitIntoParts(new Uint8Array(70000).fill(1));
    validatePart(parts[0]!);
    refused(
      () => validatePart({ ...parts[0]!, proof: { ...parts[0]!.proof, leafHash: new Uint8Array(3) } }),
      "part.proof",
    );
    refused(() => validatePart({ ...parts[0]!, bytes: new Uint8Array(65537) }), "part.bytes");
    refused(() => validatePart({ ...parts[0]!, index: 5000 }), "part.index");
    refused(() => validatePart({ ...parts[0]!, bytes: new Uint8Array(100) }), "part.bytes");
    validatePart(parts[1]!);
  });
});

describe("validateEvidence", () => {
  const a = fx.signedVote();
  const b = fx.signedVote({ blockId: { ...fx.blockId, hash: new Uint8Array(32).fill(0xff) } });
  const dve = makeDuplicateVoteEvidence(b, a, { seconds: 10n, nanos: 0 }, 10n, 30n);

  it("orders the votes by BlockID key and accepts the result", () => {
    assert.deepEqual(dve.voteA, a);
    validateEvidence(wrapDuplicateVoteEvidence(dve));
  });
  it("refuses votes out of order, a missing vote and an empty oneof", () => {
    refused(
      () => validateDuplicateVoteEvidence({ ...dve, voteA: dve.voteB, voteB: dve.voteA }),
      "duplicateVoteEvidence",
    );
    refused(() => validateDuplicateVoteEvidence({ ...dve, voteB: undefined }), "duplicateVoteEvidence.voteB");
    refused(() => validateEvidence({ sum: undefined }), "evidence");
  });
});

describe("validateLightClientAttackEvidence", () => {
  const conflicting = fx.block();
  const header = conflicting.header;
  const commit = {
    ...fx.commit(),
    height: header.height,
    blockId: { ...fx.blockId, hash: headerHash(header) },
  };
  const validatorSet = {
    validators: [
      { address: fx.address, pubKey: fx.validators[0]!.pubKey, votingPower: 10n, proposerPriority: 0n },
    ],
    proposer: undefined,
    totalVotingPower: 10n,
  };
  const lca = {
    conflictingBlock: { signedHeader: { header, commit }, validatorSet },
    commonHeight: 4n,
    byzantineValidators: [],
    totalVotingPower: 10n,
    timestamp: { seconds: 11n, nanos: 0 },
  };

  it("accepts a consistent light block", () => validateLightClientAttackEvidence(lca));
  it("refuses a common height above the block, a foreign commit or validator set, no power", () => {
    refused(
      () => validateLightClientAttackEvidence({ ...lca, commonHeight: 7n }),
      "lightClientAttackEvidence.commonHeight",
    );
    refused(
      () =>
        validateLightClientAttackEvidence({
          ...lca,
          conflictingBlock: {
            ...lca.conflictingBlock,
            signedHeader: { header, commit: { ...commit, blockId: fx.blockId } },
          },
        }),
      "lightClientAttackEvidence.conflictingBlock.signedHeader.commit.blockId.hash",
    );
    refused(
      () =>
        validateLightClientAttackEvidence({
          ...lca,
          conflictingBlock: {
            ...lca.conflictingBlock,
            validatorSet: {
              ...validatorSet,
              validators: [{ ...validatorSet.validators[0]!, votingPower: 11n }],
            },
          },
        }),
      "lightClientAttackEvidence.conflictingBlock.validatorSet",
    );
    refused(
      () => validateLightClientAttackEvidence({ ...lca, totalVotingPower: 0n }),
      "lightClientAttackEvidence.totalVotingPower",
    );
    refused(
      () => validateLightClientAttackEvidence({ ...lca, conflictingBlock: undefined }),
      "lightClientAttackEvidence.conflictingBlock",
    );
  });
});

describe("validatePublicKey", () => {
  it("accepts 32-byte ed25519 and 33-byte secp256k1 keys", () => {
    validatePublicKey({ sum: { $case: "ed25519", ed25519: new Uint8Array(32) } });
    validatePublicKey({ sum: { $case: "secp256k1", secp256k1: new Uint8Array(33) } });
  });
  it("refuses other lengths and an empty oneof", () => {
    refused(
      () => validatePublicKey({ sum: { $case: "ed25519", ed25519: new Uint8Array(33) } }),
      "pubKey.ed25519",
    );
    refused(
      () => validatePublicKey({ sum: { $case: "secp256k1", secp256k1: new Uint8Array(32) } }),
      "pubKey.secp256k1",
    );
    refused(() => validatePublicKey({ sum: undefined }), "pubKey");
  });
});
