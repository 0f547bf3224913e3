// The record bound's factor for evidence (src/wal/record-bound.ts): every evidence shape that
// validation admits costs the log record at most EVIDENCE_RECORD_FACTOR times what it costs the
// block (its protobuf entry in the block's evidence list). The costliest shapes are those with the
// most fields left empty, which protobuf omits and the record codec still names: absent commit
// signatures, votes with one-byte signatures, a header without its optional hashes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addressOf } from "../../src/crypto/hash.js";
import {
  EvidenceList,
  makeDuplicateVoteEvidence,
  wrapDuplicateVoteEvidence,
  wrapLightClientAttackEvidence,
} from "../../src/types/evidence.js";
import { goZeroTime } from "../../src/types/time.js";
import { validateEvidence } from "../../src/types/validate-evidence.js";
import { EVIDENCE_RECORD_FACTOR } from "../../src/wal/record-bound.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import type { CommitSig, Header } from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import { headerHash, validatorSetHash } from "../../src/wire/hashes.js";
import * as fx from "./types-fixtures.js";

const none = new Uint8Array(0);

/** Record bytes per block byte of one evidence, after checking validation admits it. */
function ratio(evidence: Evidence): number {
  validateEvidence(evidence);
  const inBlock = EvidenceList.encode({ evidence: [evidence] }).finish().length;
  return encodeRecord(evidence).length / inBlock;
}

function validator(i: number): Validator {
  const key = new Uint8Array(32);
  new DataView(key.buffer).setUint32(0, i + 1);
  return {
    address: addressOf(key),
    pubKey: { sum: { $case: "ed25519", ed25519: key } },
    votingPower: 1n,
    proposerPriority: 0n,
  };
}

const absent: CommitSig = {
  blockIdFlag: 1,
  validatorAddress: none,
  timestamp: goZeroTime(),
  signature: none,
};
const signed = (v: Validator): CommitSig => ({
  blockIdFlag: 2,
  validatorAddress: v.address,
  timestamp: { seconds: 1n, nanos: 0 },
  signature: Uint8Array.of(1),
});

/** A light-client attack with the sparest header validation allows. */
function attack(validators: Validator[], signatures: CommitSig[], byzantine: Validator[]): Evidence {
  const header: Header = {
    ...fx.block().header,
    chainId: "",
    height: 1n,
    time: { seconds: 0n, nanos: 0 },
    lastBlockId: { hash: none, partSetHeader: { total: 0, hash: none } },
    lastCommitHash: none,
    dataHash: none,
    evidenceHash: none,
    nextValidatorsHash: none,
    consensusHash: none,
    lastResultsHash: none,
    appHash: none,
    validatorsHash: validatorSetHash(validators),
  };
  return wrapLightClientAttackEvidence({
    conflictingBlock: {
      signedHeader: {
        header,
        commit: {
          height: 1n,
          round: 0,
          blockId: { hash: headerHash(header), partSetHeader: { total: 1, hash: new Uint8Array(32) } },
          signatures,
        },
      },
      validatorSet: { validators, proposer: undefined, totalVotingPower: BigInt(validators.length) },
    },
    commonHeight: 1n,
    byzantineValidators: byzantine,
    totalVotingPower: 1n,
    timestamp: { seconds: 0n, nanos: 0 },
  });
}

describe(`evidence costs the log record at most ${EVIDENCE_RECORD_FACTOR}x its bytes in the block`, () => {
  const one = [validator(0)];
  const many = Array.from({ length: 10_000 }, (_, i) => validator(i));
  const shapes: Array<[string, () => Evidence]> = [
    [
      "duplicate votes, signed",
      () =>
        wrapDuplicateVoteEvidence(
          makeDuplicateVoteEvidence(
            fx.signedVote(),
            fx.signedVote({ blockId: { ...fx.blockId, hash: new Uint8Array(32).fill(0xff) } }),
            { seconds: 10n, nanos: 0 },
            10n,
            30n,
          ),
        ),
    ],
    [
      "duplicate votes with one-byte signatures and zero fields",
      () => {
        const vote = {
          ...fx.signedVote({ height: 1n, round: 0, timestamp: { seconds: 0n, nanos: 0 } }),
          signature: Uint8Array.of(1),
        };
        const other = { ...vote, blockId: { ...vote.blockId, hash: new Uint8Array(32).fill(0xff) } };
        return wrapDuplicateVoteEvidence(
          makeDuplicateVoteEvidence(vote, other, { seconds: 0n, nanos: 0 }, 0n, 0n),
        );
      },
    ],
    ["a light-client attack with one validator and one signature", () => attack(one, [signed(one[0]!)], [])],
    [
      "a light-client attack with one signature and 9,999 absent",
      () => attack(one, [signed(one[0]!), ...new Array<CommitSig>(9_999).fill(absent)], []),
    ],
    [
      "a light-client attack with 10,000 absent signatures",
      () => attack(one, new Array<CommitSig>(10_000).fill(absent), []),
    ],
    [
      "a light-client attack with 10,000 validators and byzantine validators",
      () => attack(many, [signed(many[0]!)], many),
    ],
  ];
  for (const [name, make] of shapes) {
    it(name, () => {
      const r = ratio(make());
      assert.ok(r <= EVIDENCE_RECORD_FACTOR, `${r.toFixed(3)} record bytes per block byte`);
    });
  }
});
