import assert from "node:assert/strict";
import { test } from "node:test";
import { checkRecentSignatures } from "../../src/privval/double-sign-check.js";
import { PrivvalError } from "../../src/privval/errors.js";
import { BlockIDFlag, type Commit, type CommitSig } from "../../src/wire/generated/tendermint/types/types.js";

const ours = new Uint8Array(20).fill(0xaa);
const other = new Uint8Array(20).fill(0xbb);
const time = { seconds: 1700000000n, nanos: 0 };

function sig(address: Uint8Array, flag: BlockIDFlag): CommitSig {
  const absent = flag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT;
  return {
    blockIdFlag: flag,
    validatorAddress: absent ? new Uint8Array(0) : address,
    timestamp: time,
    signature: absent ? new Uint8Array(0) : new Uint8Array(64).fill(1),
  };
}

function commit(height: bigint, signatures: CommitSig[]): Commit {
  return {
    height,
    round: 0,
    blockId: { hash: new Uint8Array(32), partSetHeader: { total: 1, hash: new Uint8Array(32) } },
    signatures,
  };
}

/** A chain of `latest` heights where `ours` signed at `signedAt` with `flag`, absent elsewhere. */
function chain(latest: bigint, signedAt: Map<bigint, BlockIDFlag>) {
  const asked: bigint[] = [];
  const load = async (h: bigint) => {
    asked.push(h);
    if (h < 1n || h > latest) return undefined;
    const flag = signedAt.get(h);
    return commit(h, [
      sig(other, BlockIDFlag.BLOCK_ID_FLAG_COMMIT),
      flag === undefined ? sig(ours, BlockIDFlag.BLOCK_ID_FLAG_ABSENT) : sig(ours, flag),
    ]);
  };
  return { load, asked };
}

const refusedAt = (height: bigint) => (e: unknown) =>
  e instanceof PrivvalError &&
  e.code === "PRIVVAL_RECENT_SIGNATURE" &&
  e.message.includes(`height ${height} `);

test("a fresh signer on a chain where our key committed recently refuses to start, naming the height", async () => {
  const { load } = chain(100n, new Map([[95n, BlockIDFlag.BLOCK_ID_FLAG_COMMIT]]));
  await assert.rejects(checkRecentSignatures(ours, 10n, load, 100n), refusedAt(95n));
});

test("a nil precommit of ours counts as a signature too", async () => {
  const { load } = chain(100n, new Map([[100n, BlockIDFlag.BLOCK_ID_FLAG_NIL]]));
  await assert.rejects(checkRecentSignatures(ours, 10, load, 100n), refusedAt(100n));
});

test("the look-back covers exactly the last N commits", async () => {
  // Signed at 91: inside a look-back of 10 from 100 (91..100), outside a look-back of 9 (92..100).
  const signedAt91 = new Map([[91n, BlockIDFlag.BLOCK_ID_FLAG_COMMIT]]);
  await assert.rejects(checkRecentSignatures(ours, 10n, chain(100n, signedAt91).load, 100n), refusedAt(91n));
  const nine = chain(100n, signedAt91);
  await checkRecentSignatures(ours, 9n, nine.load, 100n);
  assert.deepEqual(nine.asked, [100n, 99n, 98n, 97n, 96n, 95n, 94n, 93n, 92n]);
});

test("signatures of other validators, absent entries and a look-back of 0 pass", async () => {
  const { load, asked } = chain(50n, new Map());
  await checkRecentSignatures(ours, 10n, load, 50n);
  await checkRecentSignatures(
    ours,
    0n,
    chain(50n, new Map([[50n, BlockIDFlag.BLOCK_ID_FLAG_COMMIT]])).load,
    50n,
  );
  assert.equal(asked.length, 10);
});

test("our signatures at heights the signer state already covers are expected, later ones are not", async () => {
  const signed = new Map([
    [97n, BlockIDFlag.BLOCK_ID_FLAG_COMMIT],
    [98n, BlockIDFlag.BLOCK_ID_FLAG_COMMIT],
  ]);
  // A validator restarting after signing up to 98: its own signatures are no twin.
  await checkRecentSignatures(ours, 10n, chain(100n, signed).load, 100n, { signedUpTo: 98n });
  // Its state says 97, but the commit of 98 holds our signature: someone else signed it.
  await assert.rejects(
    checkRecentSignatures(ours, 10n, chain(100n, signed).load, 100n, { signedUpTo: 97n }),
    refusedAt(98n),
  );
});

test("near genesis the check stops at height 1; missing commits are skipped", async () => {
  const { load, asked } = chain(3n, new Map([[1n, BlockIDFlag.BLOCK_ID_FLAG_COMMIT]]));
  await assert.rejects(checkRecentSignatures(ours, 10n, load, 3n), refusedAt(1n));
  assert.deepEqual(asked, [3n, 2n, 1n]);
  await checkRecentSignatures(ours, 10n, async () => undefined, 3n);
  await assert.rejects(checkRecentSignatures(ours, -1n, load, 3n), /must be >= 0/);
});
