// Verifying a commit against the validator set that signed it, as v0.34 does (reference §7.3):
//  - verifyCommit checks every present signature (for the block or nil) and needs more than 2/3
//    of the total power signing for the block; used for blocks a node commits or syncs.
//  - verifyCommitLight checks only signatures for the block and stops once past 2/3.
// Signature i belongs to member i of the set. The signed message is the precommit rebuilt from
// the commit (Go's Commit.GetVote). Signatures can be checked on a BatchVerifier (the worker
// pool) with exactly the answers of the one-by-one path: the first failing index in commit order
// is the one reported, as in Go.
import { verifyEd25519 } from "../crypto/ed25519-verify.js";
import { ed25519KeyBytes } from "../crypto/public-key-address.js";
import type { BatchVerifier, VerifyItem } from "../crypto/verify-item.js";
import { zeroBlockId } from "../wire/block-id.js";
import {
  type BlockID,
  BlockIDFlag,
  type Commit,
  SignedMsgType,
  type Vote,
} from "../wire/generated/tendermint/types/types.js";
import { voteSignBytes } from "../wire/sign-bytes.js";
import { CommitVerificationError } from "./commit-verification-errors.js";
import type { ValidatorSet } from "./validator-set.js";

export interface CommitVerificationOptions {
  /** Where signatures are checked; default the calling thread. Pass a VerifyPool for big sets. */
  verifier?: BatchVerifier;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex").toUpperCase();

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** Go's BlockID.Equals. */
export function blockIdsEqual(a: BlockID, b: BlockID): boolean {
  return (
    bytesEqual(a.hash, b.hash) &&
    a.partSetHeader.total === b.partSetHeader.total &&
    bytesEqual(a.partSetHeader.hash, b.partSetHeader.hash)
  );
}

const blockIdText = (b: BlockID) => `${hex(b.hash)}:${b.partSetHeader.total}:${hex(b.partSetHeader.hash)}`;

/**
 * The precommit that signature `index` of the commit signed (Go's Commit.GetVote): the commit's
 * BlockID for flag COMMIT, the zero BlockID for NIL and ABSENT.
 */
export function commitVote(commit: Commit, index: number): Vote {
  const sig = commit.signatures[index];
  if (sig === undefined) throw new RangeError(`commit has no signature ${index}`);
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT,
    height: commit.height,
    round: commit.round,
    blockId: sig.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT ? commit.blockId : zeroBlockId(),
    timestamp: sig.timestamp,
    validatorAddress: sig.validatorAddress,
    validatorIndex: index,
    signature: sig.signature,
  };
}

/** The bytes signature `index` of the commit must sign (Go's Commit.VoteSignBytes). */
export function commitVoteSignBytes(chainId: string, commit: Commit, index: number): Uint8Array {
  return voteSignBytes(chainId, commitVote(commit, index));
}

/** Power that must be exceeded: total × 2 / 3, truncated as Go's int64 division does. */
export function votingPowerNeeded(validatorSet: ValidatorSet): bigint {
  return (validatorSet.totalVotingPower * 2n) / 3n;
}

function checkShape(validatorSet: ValidatorSet, blockId: BlockID, height: bigint, commit: Commit): void {
  if (validatorSet.size !== commit.signatures.length) {
    throw new CommitVerificationError(
      "COMMIT_WRONG_SET_SIZE",
      `invalid commit: ${commit.signatures.length} signatures for a set of ${validatorSet.size} validators`,
    );
  }
  if (height !== commit.height) {
    throw new CommitVerificationError(
      "COMMIT_WRONG_HEIGHT",
      `invalid commit: it is for height ${commit.height}, expected ${height}`,
    );
  }
  if (!blockIdsEqual(blockId, commit.blockId)) {
    throw new CommitVerificationError(
      "COMMIT_WRONG_BLOCK_ID",
      `invalid commit: it is for block ${blockIdText(commit.blockId)}, expected ${blockIdText(blockId)}`,
    );
  }
}

/** One signature to check, or the reason it cannot be checked (reported in commit order). */
type Check = { index: number; item: VerifyItem } | { index: number; error: CommitVerificationError };

function signatureCheck(chainId: string, validatorSet: ValidatorSet, commit: Commit, index: number): Check {
  const sig = commit.signatures[index]!;
  const flag = sig.blockIdFlag;
  if (flag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT && flag !== BlockIDFlag.BLOCK_ID_FLAG_NIL) {
    return {
      index,
      error: new CommitVerificationError(
        "COMMIT_INVALID_FLAG",
        `invalid commit: signature ${index} has unknown BlockIDFlag ${flag}`,
        { index },
      ),
    };
  }
  const validator = validatorSet.validators[index]!;
  const publicKey = ed25519KeyBytes(validator.pubKey);
  if (publicKey === undefined) {
    return {
      index,
      error: new CommitVerificationError(
        "COMMIT_UNSUPPORTED_KEY_TYPE",
        `invalid commit: validator ${index} (${hex(validator.address)}) has a ${validator.pubKey.sum?.$case ?? "missing"} key, which this node cannot verify`,
        { index },
      ),
    };
  }
  return {
    index,
    item: { publicKey, message: commitVoteSignBytes(chainId, commit, index), signature: sig.signature },
  };
}

function invalidSignature(commit: Commit, index: number): CommitVerificationError {
  return new CommitVerificationError(
    "COMMIT_INVALID_SIGNATURE",
    `invalid commit: wrong signature (#${index}): ${hex(commit.signatures[index]!.signature)}`,
    { index },
  );
}

function insufficientPower(got: bigint, needed: bigint): CommitVerificationError {
  return new CommitVerificationError(
    "COMMIT_INSUFFICIENT_POWER",
    `invalid commit: insufficient voting power: got ${got}, needed more than ${needed}`,
    { got, needed },
  );
}

/** Which signatures each mode checks, in commit order. */
function plan(chainId: string, validatorSet: ValidatorSet, commit: Commit, light: boolean): Check[] {
  const checks: Check[] = [];
  const needed = votingPowerNeeded(validatorSet);
  let reachable = 0n;
  for (let index = 0; index < commit.signatures.length; index++) {
    const flag = commit.signatures[index]!.blockIdFlag;
    if (light) {
      // Only signatures for the block, and only until they could carry the tally past 2/3.
      if (flag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT) continue;
      checks.push(signatureCheck(chainId, validatorSet, commit, index));
      reachable += validatorSet.validators[index]!.votingPower;
      if (reachable > needed) break;
    } else {
      if (flag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) continue;
      checks.push(signatureCheck(chainId, validatorSet, commit, index));
    }
  }
  return checks;
}

/** Walks the checks in commit order with their answers, exactly as Go's loops do. */
function conclude(
  validatorSet: ValidatorSet,
  commit: Commit,
  checks: Check[],
  answers: readonly boolean[],
  light: boolean,
) {
  const needed = votingPowerNeeded(validatorSet);
  let tallied = 0n;
  let answer = 0;
  for (const check of checks) {
    if ("error" in check) throw check.error;
    if (!answers[answer++]) throw invalidSignature(commit, check.index);
    if (commit.signatures[check.index]!.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT) {
      tallied += validatorSet.validators[check.index]!.votingPower;
      if (light && tallied > needed) return;
    }
  }
  if (tallied <= needed) throw insufficientPower(tallied, needed);
}

async function run(
  light: boolean,
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
  options: CommitVerificationOptions,
): Promise<void> {
  checkShape(validatorSet, blockId, height, commit);
  const checks = plan(chainId, validatorSet, commit, light);
  const items = checks.flatMap((c) => ("item" in c ? [c.item] : []));
  const answers = options.verifier
    ? await options.verifier.verifyBatch(items)
    : items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature));
  conclude(validatorSet, commit, checks, answers, light);
}

function runSync(
  light: boolean,
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
): void {
  checkShape(validatorSet, blockId, height, commit);
  const checks = plan(chainId, validatorSet, commit, light);
  // One at a time, stopping at the first bad signature: same answer, no wasted verifies.
  const answers: boolean[] = [];
  for (const check of checks) {
    if ("error" in check) break;
    const ok = verifyEd25519(check.item.publicKey, check.item.message, check.item.signature);
    answers.push(ok);
    if (!ok) break;
  }
  conclude(validatorSet, commit, checks, answers, light);
}

/**
 * v0.34's VerifyCommit: every non-absent signature must verify, and those for `blockId` must hold
 * more than 2/3 of the total power. Rejects with CommitVerificationError.
 */
export function verifyCommit(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
  options: CommitVerificationOptions = {},
): Promise<void> {
  return run(false, chainId, validatorSet, blockId, height, commit, options);
}

/** v0.34's VerifyCommitLight: only signatures for the block, stopping once past 2/3. */
export function verifyCommitLight(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
  options: CommitVerificationOptions = {},
): Promise<void> {
  return run(true, chainId, validatorSet, blockId, height, commit, options);
}

/** verifyCommit on the calling thread; throws CommitVerificationError. */
export function verifyCommitSync(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
): void {
  runSync(false, chainId, validatorSet, blockId, height, commit);
}

/** verifyCommitLight on the calling thread; throws CommitVerificationError. */
export function verifyCommitLightSync(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
): void {
  runSync(true, chainId, validatorSet, blockId, height, commit);
}
