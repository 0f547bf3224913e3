// Verifying a commit against the validator set that signed it, as v0.34 does (reference §7.3):
//  - verifyCommit checks every present signature (for the block or nil) and needs more than 2/3
//    of the total power signing for the block; used for blocks a node commits or syncs.
//  - verifyCommitLight checks only signatures for the block and stops once past 2/3.
//  - verifyCommitLightTrusting (light client, state sync) finds signers by address in a trusted
//    set and stops once past the trust level of that set's power.
// Signature i belongs to member i of the set. The signed message is the precommit rebuilt from
// the commit (Go's Commit.GetVote). Signatures can be checked on a BatchVerifier (the worker
// pool) with exactly the answers of the one-by-one path: the first failing index in commit order
// is the one reported, as in Go.
import { bytesEqual, upperHex } from "../bytes.js";
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
import { commitSigSignBytes } from "../wire/sign-bytes.js";
import { CommitVerificationError } from "./commit-verification-errors.js";
import { andThen, type MaybePromise } from "./maybe-async.js";
import { INT64_MAX } from "./proposer-priority.js";
import type { Validator, ValidatorSet } from "./validator-set.js";

/** A fraction of the total power (v0.34's tmmath.Fraction); the light client's default is 1/3. */
export interface TrustLevel {
  numerator: bigint;
  denominator: bigint;
}

export const DEFAULT_TRUST_LEVEL: TrustLevel = Object.freeze({ numerator: 1n, denominator: 3n });

export interface CommitVerificationOptions {
  /** Where signatures are checked; default the calling thread. Pass a VerifyPool for big sets. */
  verifier?: BatchVerifier;
}

/** Go's BlockID.Equals. */
export function blockIdsEqual(a: BlockID, b: BlockID): boolean {
  return (
    bytesEqual(a.hash, b.hash) &&
    a.partSetHeader.total === b.partSetHeader.total &&
    bytesEqual(a.partSetHeader.hash, b.partSetHeader.hash)
  );
}

const blockIdText = (b: BlockID) =>
  `${upperHex(b.hash)}:${b.partSetHeader.total}:${upperHex(b.partSetHeader.hash)}`;

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
  return commitSigSignBytes(chainId, commit, index, commitVote(commit, index));
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

/**
 * One signature to check with the power it adds for the block (0 for a nil vote), or the reason
 * the walk must stop there (reported in commit order).
 */
type Check =
  | { index: number; item: VerifyItem; power: bigint }
  | { index: number; error: CommitVerificationError };

/** What a walk over the checks needs: the checks in commit order and the power to exceed. */
interface Plan {
  checks: Check[];
  needed: bigint;
  /** Stop with success as soon as the tally passes `needed` (the light forms). */
  stopEarly: boolean;
}

function signatureCheck(
  chainId: string,
  commit: Commit,
  index: number,
  validator: Validator,
  validatorIndex: number,
): Check {
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
  const publicKey = ed25519KeyBytes(validator.pubKey);
  if (publicKey === undefined) {
    return {
      index,
      error: new CommitVerificationError(
        "COMMIT_UNSUPPORTED_KEY_TYPE",
        `invalid commit: validator ${validatorIndex} (${upperHex(validator.address)}) has a ${validator.pubKey.sum?.$case ?? "missing"} key, which this node cannot verify`,
        { index },
      ),
    };
  }
  return {
    index,
    item: { publicKey, message: commitVoteSignBytes(chainId, commit, index), signature: sig.signature },
    power: flag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT ? validator.votingPower : 0n,
  };
}

function invalidSignature(commit: Commit, index: number): CommitVerificationError {
  return new CommitVerificationError(
    "COMMIT_INVALID_SIGNATURE",
    `invalid commit: wrong signature (#${index}): ${upperHex(commit.signatures[index]!.signature)}`,
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

/** VerifyCommit: every present signature, member i signing signature i. */
function planFull(chainId: string, validatorSet: ValidatorSet, commit: Commit): Plan {
  const checks: Check[] = [];
  for (let index = 0; index < commit.signatures.length; index++) {
    if (commit.signatures[index]!.blockIdFlag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) continue;
    checks.push(signatureCheck(chainId, commit, index, validatorSet.validators[index]!, index));
  }
  return { checks, needed: votingPowerNeeded(validatorSet), stopEarly: false };
}

/**
 * VerifyCommitLight: signatures for the block only, member i signing signature i, and only
 * until they could carry the tally past 2/3 (the walk never looks further).
 */
function planLight(chainId: string, validatorSet: ValidatorSet, commit: Commit): Plan {
  const checks: Check[] = [];
  const needed = votingPowerNeeded(validatorSet);
  let reachable = 0n;
  for (let index = 0; index < commit.signatures.length && reachable <= needed; index++) {
    if (commit.signatures[index]!.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT) continue;
    const validator = validatorSet.validators[index]!;
    checks.push(signatureCheck(chainId, commit, index, validator, index));
    reachable += validator.votingPower;
  }
  return { checks, needed, stopEarly: true };
}

/**
 * VerifyCommitLightTrusting: the commit may come from another set, so signers are found by
 * address; unknown signers are skipped, a member signing twice is an error.
 */
function planTrusting(
  chainId: string,
  validatorSet: ValidatorSet,
  commit: Commit,
  trustLevel: TrustLevel,
): Plan {
  const { numerator, denominator } = trustLevel;
  if (denominator <= 0n || numerator < 0n) {
    throw new CommitVerificationError(
      "COMMIT_INVALID_TRUST_LEVEL",
      `trust level ${numerator}/${denominator} must have a positive denominator and a non-negative numerator`,
    );
  }
  const scaled = validatorSet.totalVotingPower * numerator;
  if (scaled > INT64_MAX) {
    throw new CommitVerificationError(
      "COMMIT_INVALID_TRUST_LEVEL",
      `trust level numerator ${numerator} overflows int64 when multiplied by the total power`,
    );
  }
  const needed = scaled / denominator;
  const checks: Check[] = [];
  const seen = new Map<number, number>(); // member index → commit index
  let reachable = 0n;
  for (let index = 0; index < commit.signatures.length && reachable <= needed; index++) {
    const sig = commit.signatures[index]!;
    if (sig.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT) continue;
    const found = validatorSet.getByAddress(sig.validatorAddress);
    if (found === undefined) continue;
    const first = seen.get(found.index);
    if (first !== undefined) {
      checks.push({
        index,
        error: new CommitVerificationError(
          "COMMIT_DOUBLE_VOTE",
          `invalid commit: validator ${upperHex(found.validator.address)} signed twice (signatures ${first} and ${index})`,
          { index },
        ),
      });
      break;
    }
    seen.set(found.index, index);
    checks.push(signatureCheck(chainId, commit, index, found.validator, found.index));
    reachable += found.validator.votingPower;
  }
  return { checks, needed, stopEarly: true };
}

/** Walks the checks in commit order with their answers, exactly as Go's loops do. */
function conclude(plan: Plan, commit: Commit, answers: readonly boolean[]): void {
  let tallied = 0n;
  let answer = 0;
  for (const check of plan.checks) {
    if ("error" in check) throw check.error;
    if (!answers[answer++]) throw invalidSignature(commit, check.index);
    tallied += check.power;
    if (plan.stopEarly && tallied > plan.needed) return;
  }
  if (tallied <= plan.needed) throw insufficientPower(tallied, plan.needed);
}

async function runPlan(plan: Plan, commit: Commit, verifier: BatchVerifier | undefined): Promise<void> {
  const items = plan.checks.flatMap((c) => ("item" in c ? [c.item] : []));
  const answers = verifier
    ? await verifier.verifyBatch(items)
    : items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature));
  conclude(plan, commit, answers);
}

function runPlanSync(plan: Plan, commit: Commit): void {
  // One at a time, stopping at the first bad signature: same answer, no wasted verifies.
  const answers: boolean[] = [];
  for (const check of plan.checks) {
    if ("error" in check) break;
    const ok = verifyEd25519(check.item.publicKey, check.item.message, check.item.signature);
    answers.push(ok);
    if (!ok) break;
  }
  conclude(plan, commit, answers);
}

/**
 * v0.34's VerifyCommit: every non-absent signature must verify, and those for `blockId` must hold
 * more than 2/3 of the total power. Rejects with CommitVerificationError.
 */
export async function verifyCommit(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
  options: CommitVerificationOptions = {},
): Promise<void> {
  checkShape(validatorSet, blockId, height, commit);
  await runPlan(planFull(chainId, validatorSet, commit), commit, options.verifier);
}

/** v0.34's VerifyCommitLight: only signatures for the block, stopping once past 2/3. */
export async function verifyCommitLight(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
  options: CommitVerificationOptions = {},
): Promise<void> {
  checkShape(validatorSet, blockId, height, commit);
  await runPlan(planLight(chainId, validatorSet, commit), commit, options.verifier);
}

/**
 * v0.34's VerifyCommitLightTrusting (light client, state sync): signatures for the block by
 * members of this (trusted, possibly older) set must hold more than trustLevel of its power.
 * The commit's size, height and block are not checked here, as in Go.
 */
export async function verifyCommitLightTrusting(
  chainId: string,
  validatorSet: ValidatorSet,
  commit: Commit,
  trustLevel: TrustLevel = DEFAULT_TRUST_LEVEL,
  options: CommitVerificationOptions = {},
): Promise<void> {
  await runPlan(planTrusting(chainId, validatorSet, commit, trustLevel), commit, options.verifier);
}

/**
 * verifyCommit with the signatures checked by `check`, which answers now (a simulation's memoised
 * verifier) or later (the node's worker pool): the same plan and walk either way, so the answer is
 * the node's. Throws (or rejects with) CommitVerificationError.
 */
export function verifyCommitThrough(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
  check: (items: readonly VerifyItem[]) => MaybePromise<boolean[]>,
): MaybePromise<void> {
  checkShape(validatorSet, blockId, height, commit);
  const plan = planFull(chainId, validatorSet, commit);
  const items = plan.checks.flatMap((c) => ("item" in c ? [c.item] : []));
  return andThen(check(items), (answers) => conclude(plan, commit, answers));
}

/** verifyCommit on the calling thread; throws CommitVerificationError. */
export function verifyCommitSync(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
): void {
  checkShape(validatorSet, blockId, height, commit);
  runPlanSync(planFull(chainId, validatorSet, commit), commit);
}

/** verifyCommitLight on the calling thread; throws CommitVerificationError. */
export function verifyCommitLightSync(
  chainId: string,
  validatorSet: ValidatorSet,
  blockId: BlockID,
  height: bigint,
  commit: Commit,
): void {
  checkShape(validatorSet, blockId, height, commit);
  runPlanSync(planLight(chainId, validatorSet, commit), commit);
}

/** verifyCommitLightTrusting on the calling thread; throws CommitVerificationError. */
export function verifyCommitLightTrustingSync(
  chainId: string,
  validatorSet: ValidatorSet,
  commit: Commit,
  trustLevel: TrustLevel = DEFAULT_TRUST_LEVEL,
): void {
  runPlanSync(planTrusting(chainId, validatorSet, commit, trustLevel), commit);
}
