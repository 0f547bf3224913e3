// Review: evidence bytes are counted as v0.34 counts them, as the size of the EvidenceList
// message (each item with its field tag and length prefix), both when reaping for a proposal and
// when checking a block's evidence against evidence.max_bytes. Counting the bare items instead
// lets a proposal carry more evidence than v0.34 validators accept (ErrEvidenceOverflow) and
// under-reports the evidence bytes the block's data budget (maxDataBytes) is computed from.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import {
  addConflictingVotes,
  checkBlockEvidence,
  EMPTY_EVIDENCE_POOL,
  type EvidenceHistory,
  pendingEvidence,
  updateEvidencePool,
} from "../../src/evidence/index.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { EvidenceList } from "../../src/wire/generated/tendermint/types/evidence.js";
import { type BlockID, SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { at, genesisChain } from "./consensus-harness.js";

const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const genesis = genesisChain(
  keys.map(() => 10n),
  keys.map((k) => k.publicKey),
);
const chain1: ChainState = {
  ...genesis,
  lastBlockHeight: 1n,
  lastBlockTime: at(1000),
  lastValidators: genesis.validators,
};
const noHistory: EvidenceHistory = { blockTimeAt: () => undefined, validatorsAt: () => undefined };

const blockId = (tag: number): BlockID => ({
  hash: new Uint8Array(32).fill(tag),
  partSetHeader: { total: 1, hash: new Uint8Array(32).fill(tag + 1) },
});

function signedVote(index: number, id: BlockID): Vote {
  const validator = genesis.validators!.validators[index]!;
  const pub = (validator.pubKey.sum as { ed25519: Uint8Array }).ed25519;
  const key = keys.find((k) => Buffer.from(k.publicKey).equals(Buffer.from(pub)))!;
  const vote: Vote = {
    type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
    height: 1n,
    round: 0,
    blockId: id,
    timestamp: at(500),
    validatorAddress: validator.address,
    validatorIndex: index,
    signature: new Uint8Array(0),
  };
  return { ...vote, signature: signEd25519(key.privateKey, voteSignBytes(genesis.chainId, vote)) };
}

/** Two pieces of evidence (validators 1 and 2 each voted twice at height 1). */
function poolWithTwo() {
  let pool = addConflictingVotes(EMPTY_EVIDENCE_POOL, signedVote(1, blockId(9)), signedVote(1, blockId(3)));
  pool = addConflictingVotes(pool, signedVote(2, blockId(9)), signedVote(2, blockId(3)));
  return updateEvidencePool(pool, chain1, [], noHistory);
}

const listSize = (evidence: Parameters<typeof EvidenceList.encode>[0]["evidence"]) =>
  EvidenceList.encode({ evidence }).finish().length;

describe("review: evidence bytes are the EvidenceList's size", () => {
  it("pendingEvidence reports the list size and keeps within max_bytes by it", () => {
    const pool = poolWithTwo();
    assert.equal(pool.pending.length, 2);
    const all = pendingEvidence(pool, 1_048_576n);
    assert.equal(all.evidence.length, 2);
    const exact = listSize(all.evidence);
    assert.equal(all.bytes, exact);
    // One byte less than the list of both: only the first fits.
    const one = pendingEvidence(pool, BigInt(exact - 1));
    assert.equal(one.evidence.length, 1);
    assert.equal(one.bytes, listSize(one.evidence));
  });

  it("checkBlockEvidence refuses a list over evidence.max_bytes by its encoded size", () => {
    const pool = poolWithTwo();
    const evidence = pool.pending.map((p) => p.evidence);
    const size = listSize(evidence);
    const tight: ChainState = {
      ...chain1,
      consensusParams: {
        ...chain1.consensusParams,
        evidence: { ...chain1.consensusParams.evidence, maxBytes: BigInt(size - 1) },
      },
    };
    assert.match(checkBlockEvidence(pool, evidence, tight, noHistory, verifyEd25519) ?? "", /max_bytes/);
    const enough: ChainState = {
      ...tight,
      consensusParams: {
        ...tight.consensusParams,
        evidence: { ...tight.consensusParams.evidence, maxBytes: BigInt(size) },
      },
    };
    assert.equal(checkBlockEvidence(pool, evidence, enough, noHistory, verifyEd25519), undefined);
  });
});
