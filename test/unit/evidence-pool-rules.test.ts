// The evidence pool's rules: conflicting votes → DuplicateVoteEvidence once their block time is
// known, verification of received evidence (signatures, powers, time, age), reaping within
// max_bytes, and forgetting evidence once committed or expired. Real ed25519 signatures.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import {
  addConflictingVotes,
  addVerifiedEvidence,
  checkBlockEvidence,
  checkEvidence,
  EMPTY_EVIDENCE_POOL,
  type EvidenceHistory,
  isEvidenceExpired,
  pendingEvidence,
  updateEvidencePool,
} from "../../src/evidence/index.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { DuplicateVoteEvidence, Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import { type BlockID, SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";
import { at, genesisChain } from "./consensus-harness.js";

const keys = [1, 2, 3, 4].map((i) => keyPairFromSeed(new Uint8Array(32).fill(i)));
const genesis = genesisChain(
  keys.map(() => 10n),
  keys.map((k) => k.publicKey),
);
/** The chain after block 1 (time 1 s after genesis). */
const chain1: ChainState = {
  ...genesis,
  lastBlockHeight: 1n,
  lastBlockTime: at(1000),
  lastValidators: genesis.validators,
};
const noHistory: EvidenceHistory = { blockTimeAt: () => undefined, validatorsAt: () => undefined };

function blockId(tag: number): BlockID {
  return {
    hash: new Uint8Array(32).fill(tag),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(tag + 1) },
  };
}

function signedVote(index: number, id: BlockID, height = 1n): Vote {
  const validator = genesis.validators!.validators[index]!;
  const pub = (validator.pubKey.sum as { ed25519: Uint8Array }).ed25519;
  const key = keys.find((k) => Buffer.from(k.publicKey).equals(Buffer.from(pub)))!;
  const vote: Vote = {
    type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
    height,
    round: 0,
    blockId: id,
    timestamp: at(500),
    validatorAddress: validator.address,
    validatorIndex: index,
    signature: new Uint8Array(0),
  };
  return { ...vote, signature: signEd25519(key.privateKey, voteSignBytes(genesis.chainId, vote)) };
}

function poolWithEvidence() {
  const pool = addConflictingVotes(EMPTY_EVIDENCE_POOL, signedVote(1, blockId(9)), signedVote(1, blockId(3)));
  return updateEvidencePool(pool, chain1, [], noHistory);
}

describe("evidence pool", () => {
  it("turns conflicting votes into DuplicateVoteEvidence at the commit of their height", () => {
    const buffered = addConflictingVotes(
      EMPTY_EVIDENCE_POOL,
      signedVote(1, blockId(9)),
      signedVote(1, blockId(3)),
    );
    assert.equal(buffered.conflicts.length, 1);
    // The same pair again, or a non-conflict, is not buffered.
    assert.equal(
      addConflictingVotes(buffered, signedVote(1, blockId(9)), signedVote(1, blockId(3))).conflicts.length,
      1,
    );
    assert.equal(
      addConflictingVotes(buffered, signedVote(2, blockId(9)), signedVote(2, blockId(9))).conflicts.length,
      1,
    );
    // Not yet committed: stays buffered.
    assert.equal(updateEvidencePool(buffered, genesis, [], noHistory).conflicts.length, 1);
    const pool = updateEvidencePool(buffered, chain1, [], noHistory);
    assert.equal(pool.conflicts.length, 0);
    assert.equal(pool.pending.length, 1);
    const evidence = pool.pending[0]!.evidence.sum;
    assert.equal(evidence?.$case, "duplicateVoteEvidence");
    if (evidence?.$case !== "duplicateVoteEvidence") return;
    const dve = evidence.duplicateVoteEvidence;
    assert.deepEqual(dve.timestamp, chain1.lastBlockTime);
    assert.equal(dve.totalVotingPower, 40n);
    assert.equal(dve.validatorPower, 10n);
    assert.deepEqual(dve.voteA!.blockId, blockId(3), "ordered by BlockID key");
  });

  it("reaps pending evidence within max_bytes", () => {
    const pool = poolWithEvidence();
    const all = pendingEvidence(pool, 1_048_576n);
    assert.equal(all.evidence.length, 1);
    assert.ok(all.bytes > 200);
    assert.deepEqual(pendingEvidence(pool, BigInt(all.bytes - 1)).evidence, []);
  });

  it("verifies received evidence: signatures, powers, time, height and age", () => {
    const good = poolWithEvidence().pending[0]!.evidence;
    const fresh = EMPTY_EVIDENCE_POOL;
    assert.equal(checkEvidence(fresh, good, chain1, noHistory, verifyEd25519).kind, "valid");
    const sum = good.sum;
    if (sum?.$case !== "duplicateVoteEvidence") throw new Error("expected duplicate vote evidence");
    const dve = sum.duplicateVoteEvidence;
    const variant = (patch: Partial<DuplicateVoteEvidence>): Evidence => ({
      sum: { $case: "duplicateVoteEvidence", duplicateVoteEvidence: { ...dve, ...patch } },
    });
    const cases: [Evidence, RegExp][] = [
      [
        variant({ voteB: { ...dve.voteB!, signature: dve.voteA!.signature } }),
        /voteB's signature does not verify/,
      ],
      [variant({ validatorPower: 11n }), /validator power 11/],
      [variant({ timestamp: at(999) }), /time differs/],
    ];
    for (const [evidence, reason] of cases) {
      const check = checkEvidence(fresh, evidence, chain1, noHistory, verifyEd25519);
      assert.equal(check.kind, "invalid");
      if (check.kind === "invalid") assert.match(check.reason, reason);
    }
    // From a height the chain has not reached.
    const future = checkEvidence(fresh, good, genesis, noHistory, verifyEd25519);
    assert.equal(future.kind, "invalid");
    // Expired only when older than both limits.
    const params = chain1.consensusParams;
    const later: ChainState = {
      ...chain1,
      lastBlockHeight: 200_000n,
      lastBlockTime: { seconds: chain1.lastBlockTime.seconds + 200_000n, nanos: 0 },
      consensusParams: params,
    };
    assert.equal(isEvidenceExpired(later, 1n, chain1.lastBlockTime), true);
    assert.equal(isEvidenceExpired({ ...later, lastBlockHeight: 50n }, 1n, chain1.lastBlockTime), false);
    const history: EvidenceHistory = {
      blockTimeAt: (h) => (h === 1n ? chain1.lastBlockTime : undefined),
      validatorsAt: (h) => (h === 1n ? genesis.validators!.validators : undefined),
    };
    const old = checkEvidence(fresh, good, later, history, verifyEd25519);
    assert.equal(old.kind, "invalid");
    if (old.kind === "invalid") assert.match(old.reason, /too old/);
  });

  it("forgets committed evidence, refuses it again, and checks a block's evidence list", () => {
    const pool = poolWithEvidence();
    const evidence = pool.pending[0]!.evidence;
    assert.equal(checkBlockEvidence(pool, [evidence], chain1, noHistory, verifyEd25519), undefined);
    assert.match(
      checkBlockEvidence(pool, [evidence, evidence], chain1, noHistory, verifyEd25519)!,
      /appears twice/,
    );
    const chain2: ChainState = { ...chain1, lastBlockHeight: 2n, lastBlockTime: at(2000) };
    const after = updateEvidencePool(pool, chain2, [evidence], noHistory);
    assert.equal(after.pending.length, 0);
    assert.equal(after.committed.length, 1);
    const again = checkEvidence(after, evidence, chain2, noHistory, verifyEd25519);
    assert.equal(again.kind, "invalid");
    assert.equal(addVerifiedEvidence(after, evidence).pending.length, 0);
  });
});
