// Evidence helpers: the oneof round trip for both kinds, ABCI conversion, and per-item hashes.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  decodeEvidence,
  Evidence,
  evidenceHeight,
  evidenceItemHash,
  evidenceToAbci,
  makeDuplicateVoteEvidence,
  wrapDuplicateVoteEvidence,
  wrapLightClientAttackEvidence,
} from "../../src/types/evidence.js";
import { WireError } from "../../src/wire/errors.js";
import { EvidenceType } from "../../src/wire/generated/tendermint/abci/types.js";
import { duplicateVoteEvidenceHash, lightClientAttackEvidenceHash } from "../../src/wire/hashes.js";
import * as fx from "./types-fixtures.js";

const a = fx.signedVote();
const b = fx.signedVote({ blockId: { ...fx.blockId, hash: new Uint8Array(32).fill(0xff) } });
const dve = makeDuplicateVoteEvidence(a, b, { seconds: 10n, nanos: 0 }, 10n, 30n);
const signedHeader = { header: fx.block().header, commit: fx.commit() };
const lca = {
  conflictingBlock: {
    signedHeader,
    validatorSet: { validators: [], proposer: undefined, totalVotingPower: 10n },
  },
  commonHeight: 4n,
  byzantineValidators: [
    { address: fx.address, pubKey: fx.validators[0]!.pubKey, votingPower: 10n, proposerPriority: 0n },
  ],
  totalVotingPower: 10n,
  timestamp: { seconds: 11n, nanos: 0 },
};

describe("evidence", () => {
  it("DuplicateVoteEvidence travels through the Evidence oneof", () => {
    const bytes = Evidence.encode(wrapDuplicateVoteEvidence(dve)).finish();
    const back = decodeEvidence(bytes);
    assert.equal(back.sum?.$case, "duplicateVoteEvidence");
    assert.deepEqual(evidenceItemHash(back), duplicateVoteEvidenceHash(dve));
    assert.equal(evidenceHeight(back), 5n);
  });

  it("LightClientAttackEvidence decodes from the oneof with its conflicting block", () => {
    const bytes = Evidence.encode(wrapLightClientAttackEvidence(lca)).finish();
    const back = decodeEvidence(bytes);
    assert.equal(back.sum?.$case, "lightClientAttackEvidence");
    if (back.sum?.$case !== "lightClientAttackEvidence") return;
    assert.equal(back.sum.lightClientAttackEvidence.commonHeight, 4n);
    assert.equal(back.sum.lightClientAttackEvidence.conflictingBlock?.signedHeader?.header?.height, 6n);
    assert.deepEqual(evidenceItemHash(back), lightClientAttackEvidenceHash(lca));
    assert.equal(evidenceHeight(back), 4n);
  });

  it("an empty oneof is refused", () => {
    assert.throws(() => decodeEvidence(new Uint8Array(0)), WireError);
  });

  it("converts to ABCI misbehaviour entries", () => {
    assert.deepEqual(evidenceToAbci(wrapDuplicateVoteEvidence(dve)), [
      {
        type: EvidenceType.DUPLICATE_VOTE,
        validator: { address: fx.address, power: 10n },
        height: 5n,
        time: { seconds: 10n, nanos: 0 },
        totalVotingPower: 30n,
      },
    ]);
    const lcaAbci = evidenceToAbci(wrapLightClientAttackEvidence(lca));
    assert.equal(lcaAbci.length, 1);
    assert.equal(lcaAbci[0]!.type, EvidenceType.LIGHT_CLIENT_ATTACK);
    assert.equal(lcaAbci[0]!.height, 4n);
  });
});
