import assert from "node:assert/strict";
import { test } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { addressOf } from "../../src/crypto/hash.js";
import { VerifyPool } from "../../src/crypto/verify-pool.js";
import {
  commitVote,
  commitVoteSignBytes,
  verifyCommit,
  verifyCommitLight,
  verifyCommitLightSync,
  verifyCommitLightTrusting,
  verifyCommitLightTrustingSync,
  verifyCommitSync,
} from "../../src/types/commit-verification.js";
import { CommitVerificationError } from "../../src/types/commit-verification-errors.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import {
  type BlockID,
  BlockIDFlag,
  type Commit,
  type CommitSig,
  SignedMsgType,
} from "../../src/wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../../src/wire/sign-bytes.js";

const CHAIN = "test-chain";
const HEIGHT = 42n;
const filled = (n: number, len = 32) => new Uint8Array(len).fill(n);
const blockId: BlockID = { hash: filled(0xaa), partSetHeader: { total: 3, hash: filled(0xbb) } };

function fixture(powers: bigint[]) {
  const keys = powers.map((_, i) => keyPairFromSeed(filled(i + 1)));
  const set = ValidatorSet.create(
    keys.map((k, i) => ({
      pubKey: { sum: { $case: "ed25519", ed25519: k.publicKey } },
      votingPower: powers[i]!,
    })),
  );
  const byAddress = new Map(keys.map((k) => [Buffer.from(addressOf(k.publicKey)).toString("hex"), k]));
  // The key pair of member `index` in set order.
  const signerOf = (index: number) =>
    byAddress.get(Buffer.from(set.validators[index]!.address).toString("hex"))!;
  return { set, signerOf };
}

/** A commit where flags[i] says how member i signed; its signatures are real. */
function makeCommit(
  fx: ReturnType<typeof fixture>,
  flags: BlockIDFlag[],
  overrides: { height?: bigint; round?: number; blockId?: BlockID } = {},
): Commit {
  const commit: Commit = {
    height: overrides.height ?? HEIGHT,
    round: overrides.round ?? 1,
    blockId: overrides.blockId ?? blockId,
    signatures: [],
  };
  commit.signatures = flags.map(
    (flag, i): CommitSig => ({
      blockIdFlag: flag,
      validatorAddress:
        flag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT ? new Uint8Array(0) : fx.set.validators[i]!.address,
      timestamp: { seconds: 1_700_000_000n + BigInt(i), nanos: 1000 * i },
      signature: new Uint8Array(0),
    }),
  );
  for (const [i, sig] of commit.signatures.entries()) {
    if (sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) continue;
    sig.signature = signEd25519(fx.signerOf(i).privateKey, commitVoteSignBytes(CHAIN, commit, i));
  }
  return commit;
}

const C = BlockIDFlag.BLOCK_ID_FLAG_COMMIT;
const N = BlockIDFlag.BLOCK_ID_FLAG_NIL;
const A = BlockIDFlag.BLOCK_ID_FLAG_ABSENT;

function forge(commit: Commit, index: number): Commit {
  const signatures = commit.signatures.map((s) => ({ ...s }));
  const bad = signatures[index]!.signature.slice();
  bad[5] ^= 0x01;
  signatures[index]!.signature = bad;
  return { ...commit, signatures };
}

/** Runs all four entry points (sync/async × full/light) and returns their outcomes. */
async function outcomes(set: ValidatorSet, commit: Commit, pool?: VerifyPool, id: BlockID = blockId) {
  const outcome = async (f: () => unknown) => {
    try {
      await f();
      return "ok";
    } catch (error) {
      assert.ok(error instanceof CommitVerificationError, String(error));
      return `${error.code}${error.index === undefined ? "" : `#${error.index}`}`;
    }
  };
  const options = pool ? { verifier: pool } : {};
  return {
    full: await outcome(() => verifyCommit(CHAIN, set, id, HEIGHT, commit, options)),
    fullSync: await outcome(() => verifyCommitSync(CHAIN, set, id, HEIGHT, commit)),
    light: await outcome(() => verifyCommitLight(CHAIN, set, id, HEIGHT, commit, options)),
    lightSync: await outcome(() => verifyCommitLightSync(CHAIN, set, id, HEIGHT, commit)),
  };
}

const fx4 = fixture([10n, 10n, 10n, 10n]);

test("a commit signed by everyone verifies, full and light", async () => {
  const commit = makeCommit(fx4, [C, C, C, C]);
  assert.deepEqual(await outcomes(fx4.set, commit), {
    full: "ok",
    fullSync: "ok",
    light: "ok",
    lightSync: "ok",
  });
});

test("the sign bytes are those of the precommit rebuilt from the commit", () => {
  const commit = makeCommit(fx4, [C, N, A, C]);
  const vote = commitVote(commit, 1);
  assert.equal(vote.type, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT);
  assert.equal(vote.validatorIndex, 1);
  assert.equal(vote.blockId.hash.length, 0, "a nil signature signs the zero BlockID");
  assert.deepEqual(commitVote(commit, 0).blockId, blockId);
  const explicit = voteSignBytes(CHAIN, {
    type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height: HEIGHT,
    round: 1,
    blockId,
    timestamp: commit.signatures[3]!.timestamp,
    validatorAddress: new Uint8Array(20),
    validatorIndex: 0,
    signature: new Uint8Array(0),
  });
  assert.deepEqual(commitVoteSignBytes(CHAIN, commit, 3), explicit);
  assert.throws(() => commitVote(commit, 4), RangeError);
});

test("wrong set size, height and block id are refused before any signature", async () => {
  const commit = makeCommit(fx4, [C, C, C, C]);
  const short = { ...commit, signatures: commit.signatures.slice(0, 3) };
  await assert.rejects(verifyCommit(CHAIN, fx4.set, blockId, HEIGHT, short), {
    code: "COMMIT_WRONG_SET_SIZE",
  });
  assert.throws(() => verifyCommitLightSync(CHAIN, fx4.set, blockId, HEIGHT, short), {
    code: "COMMIT_WRONG_SET_SIZE",
    message: /3 signatures for a set of 4/,
  });
  await assert.rejects(verifyCommit(CHAIN, fx4.set, blockId, HEIGHT + 1n, commit), {
    code: "COMMIT_WRONG_HEIGHT",
    message: /height 42, expected 43/,
  });
  const other: BlockID = { ...blockId, partSetHeader: { ...blockId.partSetHeader, total: 4 } };
  await assert.rejects(verifyCommit(CHAIN, fx4.set, other, HEIGHT, commit), {
    code: "COMMIT_WRONG_BLOCK_ID",
  });
  assert.throws(() => verifyCommitSync(CHAIN, fx4.set, { ...blockId, hash: filled(1) }, HEIGHT, commit), {
    code: "COMMIT_WRONG_BLOCK_ID",
  });
});

test("a forged signature is named by its index; light verification stops before a late one", async () => {
  const commit = makeCommit(fx4, [C, C, C, C]);
  assert.deepEqual(await outcomes(fx4.set, forge(commit, 1)), {
    full: "COMMIT_INVALID_SIGNATURE#1",
    fullSync: "COMMIT_INVALID_SIGNATURE#1",
    light: "COMMIT_INVALID_SIGNATURE#1",
    lightSync: "COMMIT_INVALID_SIGNATURE#1",
  });
  // 3 of 4 equal powers pass 2/3, so light never looks at signature 3.
  assert.deepEqual(await outcomes(fx4.set, forge(commit, 3)), {
    full: "COMMIT_INVALID_SIGNATURE#3",
    fullSync: "COMMIT_INVALID_SIGNATURE#3",
    light: "ok",
    lightSync: "ok",
  });
  // The first bad index in commit order is the one reported.
  assert.deepEqual((await outcomes(fx4.set, forge(forge(commit, 2), 0))).full, "COMMIT_INVALID_SIGNATURE#0");
});

test("a signature by the wrong chain id is invalid", async () => {
  const commit = makeCommit(fx4, [C, C, C, C]);
  await assert.rejects(verifyCommit("other-chain", fx4.set, blockId, HEIGHT, commit), {
    code: "COMMIT_INVALID_SIGNATURE",
    index: 0,
  });
});

test("exactly 2/3 of the power is not enough, and the error carries the numbers", async () => {
  const fx3 = fixture([1n, 1n, 1n]);
  const commit = makeCommit(fx3, [C, C, A]);
  await assert.rejects(verifyCommit(CHAIN, fx3.set, blockId, HEIGHT, commit), (e: unknown) => {
    assert.ok(e instanceof CommitVerificationError);
    assert.equal(e.code, "COMMIT_INSUFFICIENT_POWER");
    assert.equal(e.got, 2n);
    assert.equal(e.needed, 2n);
    assert.match(e.message, /got 2, needed more than 2/);
    return true;
  });
  assert.throws(() => verifyCommitLightSync(CHAIN, fx3.set, blockId, HEIGHT, commit), {
    code: "COMMIT_INSUFFICIENT_POWER",
  });
  assert.deepEqual(await outcomes(fx3.set, makeCommit(fx3, [C, C, C])), {
    full: "ok",
    fullSync: "ok",
    light: "ok",
    lightSync: "ok",
  });
});

test("nil votes are verified by the full check but never counted for the block", async () => {
  const commit = makeCommit(fx4, [C, C, N, C]);
  assert.deepEqual(await outcomes(fx4.set, commit), {
    full: "ok",
    fullSync: "ok",
    light: "ok",
    lightSync: "ok",
  });
  // A forged nil vote fails the full check only.
  assert.deepEqual(await outcomes(fx4.set, forge(commit, 2)), {
    full: "COMMIT_INVALID_SIGNATURE#2",
    fullSync: "COMMIT_INVALID_SIGNATURE#2",
    light: "ok",
    lightSync: "ok",
  });
  // Two nils leave 20 of 40: not enough.
  const weak = makeCommit(fx4, [C, N, N, C]);
  assert.equal((await outcomes(fx4.set, weak)).full, "COMMIT_INSUFFICIENT_POWER");
});

test("absent signatures are skipped whatever bytes they carry", async () => {
  const commit = makeCommit(fx4, [C, A, C, C]);
  commit.signatures[1]!.signature = filled(7, 64);
  assert.deepEqual(await outcomes(fx4.set, commit), {
    full: "ok",
    fullSync: "ok",
    light: "ok",
    lightSync: "ok",
  });
});

test("an unknown BlockIDFlag fails the full check; light skips it as not for the block", async () => {
  const commit = makeCommit(fx4, [C, C, C, C]);
  commit.signatures[3]!.blockIdFlag = BlockIDFlag.BLOCK_ID_FLAG_UNKNOWN;
  const got = await outcomes(fx4.set, commit);
  assert.equal(got.full, "COMMIT_INVALID_FLAG#3");
  assert.equal(got.fullSync, "COMMIT_INVALID_FLAG#3");
  assert.equal(got.light, "ok");
});

test("a secp256k1 member cannot be verified here and is named", async () => {
  const set = ValidatorSet.fromValidators([
    ...fx4.set.validators.slice(0, 3),
    {
      address: filled(9, 20),
      pubKey: { sum: { $case: "secp256k1", secp256k1: filled(2, 33) } },
      votingPower: 10n,
      proposerPriority: 0n,
    },
  ]);
  const commit = makeCommit(fx4, [C, C, C, N]);
  assert.equal((await outcomes(set, commit)).full, "COMMIT_UNSUPPORTED_KEY_TYPE#3");
});

test("a 100-validator commit gets identical answers on the pool and on the calling thread", async () => {
  const powers = Array.from({ length: 100 }, (_, i) => BigInt(1 + (i % 7)));
  const fx = fixture(powers);
  const flags = powers.map((_, i) => (i % 11 === 0 ? A : i % 13 === 0 ? N : C));
  const commit = makeCommit(fx, flags);
  const pool = new VerifyPool({ size: 2, mainThreadBelow: 0 });
  try {
    const variants = [commit, forge(commit, 97), forge(commit, 26), forge(commit, 3)];
    for (const variant of variants) {
      const onPool = await outcomes(fx.set, variant, pool);
      const here = await outcomes(fx.set, variant);
      assert.deepEqual(onPool, here);
      assert.equal(onPool.full, onPool.fullSync);
      assert.equal(onPool.light, onPool.lightSync);
    }
    assert.equal((await outcomes(fx.set, commit, pool)).full, "ok");
    assert.equal((await outcomes(fx.set, forge(commit, 97), pool)).full, "COMMIT_INVALID_SIGNATURE#97");
    assert.equal((await outcomes(fx.set, forge(commit, 97), pool)).light, "ok");
  } finally {
    await pool.close();
  }
});

const codeOf = async (f: () => unknown) => {
  try {
    await f();
    return "ok";
  } catch (error) {
    assert.ok(error instanceof CommitVerificationError, String(error));
    return error.code;
  }
};

test("trusting verification finds signers by address in another set and needs more than 1/3 of it", async () => {
  const commit = makeCommit(fx4, [C, C, N, A]);
  // Same set: 20 of 40 > 13.
  assert.equal(await codeOf(() => verifyCommitLightTrusting(CHAIN, fx4.set, commit)), "ok");
  // A trusted set where only member 0 of fx4 is known (10 of 40): not enough.
  const others = ValidatorSet.create(
    [101, 102].map((seed) => ({
      pubKey: { sum: { $case: "ed25519" as const, ed25519: keyPairFromSeed(filled(seed)).publicKey } },
      votingPower: 10n,
    })),
  ).validators;
  const mostlyStrangers = ValidatorSet.fromValidators([
    fx4.set.validators[0]!,
    ...others,
    fx4.set.validators[3]!,
  ]);
  await assert.rejects(verifyCommitLightTrusting(CHAIN, mostlyStrangers, commit), {
    code: "COMMIT_INSUFFICIENT_POWER",
    got: 10n,
    needed: 13n,
  });
  // Members 0 and 1 known in a set ordered differently: 20 of 40 suffices.
  const reordered = ValidatorSet.fromValidators([...others, fx4.set.validators[1]!, fx4.set.validators[0]!]);
  assert.equal(await codeOf(() => verifyCommitLightTrusting(CHAIN, reordered, commit)), "ok");
  // A stricter trust level of 2/3 (26) is not met by 20.
  assert.equal(
    await codeOf(() => verifyCommitLightTrusting(CHAIN, fx4.set, commit, { numerator: 2n, denominator: 3n })),
    "COMMIT_INSUFFICIENT_POWER",
  );
  // A forged signature among those needed is named.
  await assert.rejects(verifyCommitLightTrusting(CHAIN, fx4.set, forge(commit, 1)), {
    code: "COMMIT_INVALID_SIGNATURE",
    index: 1,
  });
});

test("trusting verification refuses a validator signing twice and unusable trust levels", async () => {
  const commit = makeCommit(fx4, [C, C, C, C]);
  const doubled = { ...commit, signatures: commit.signatures.map((s) => ({ ...s })) };
  doubled.signatures[1]!.validatorAddress = doubled.signatures[0]!.validatorAddress;
  assert.throws(() => verifyCommitLightTrustingSync(CHAIN, fx4.set, doubled), {
    code: "COMMIT_DOUBLE_VOTE",
    index: 1,
  });
  await assert.rejects(
    verifyCommitLightTrusting(CHAIN, fx4.set, commit, { numerator: 1n, denominator: 0n }),
    {
      code: "COMMIT_INVALID_TRUST_LEVEL",
    },
  );
  await assert.rejects(
    verifyCommitLightTrusting(CHAIN, fx4.set, commit, { numerator: 1n << 62n, denominator: 1n }),
    { code: "COMMIT_INVALID_TRUST_LEVEL" },
  );
});

test("trusting verification gives the same answers on the pool", async () => {
  const commit = makeCommit(fx4, [C, C, N, C]);
  const pool = new VerifyPool({ size: 2, mainThreadBelow: 0 });
  try {
    for (const variant of [commit, forge(commit, 0), forge(commit, 3)]) {
      const onPool = await codeOf(() =>
        verifyCommitLightTrusting(CHAIN, fx4.set, variant, undefined, { verifier: pool }),
      );
      const here = await codeOf(() => verifyCommitLightTrustingSync(CHAIN, fx4.set, variant));
      assert.equal(onPool, here);
    }
  } finally {
    await pool.close();
  }
});
