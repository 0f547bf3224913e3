// The evidence pool's pure rules (v0.34's evidence pool): conflicting votes seen by consensus are
// buffered until the block time of their height is known, then become DuplicateVoteEvidence;
// evidence from peers, the RPC or a proposed block is verified against the validator set, the
// block time and (light client attacks) the signed header of its height; pending evidence is
// offered to proposals within the evidence max_bytes, and dropped once committed or expired
// (older than BOTH max_age_num_blocks and max_age_duration). The caller persists and looks up history.

import { bytesEqual as sameBytes } from "../types/bytes.js";
import { TypesError } from "../types/errors.js";
import { evidenceHeight, evidenceTime, wrapDuplicateVoteEvidence } from "../types/evidence.js";
import { compareTimestamps as compareTime, timestampToNanos as toNanos } from "../types/time.js";
import { validateEvidence } from "../types/validate-evidence.js";
import type { Duration } from "../wire/generated/google/protobuf/duration.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import { Evidence } from "../wire/generated/tendermint/types/evidence.js";
import type { Vote } from "../wire/generated/tendermint/types/types.js";
import { evidenceItemHash } from "../wire/hashes.js";
import { conflictProblem, duplicateVoteEvidence, duplicateVoteProblem } from "./duplicate-vote.js";
import { lightClientAttackProblem, validatorsAtHeight } from "./light-client-attack.js";
import {
  type EvidenceHistory,
  type EvidencePoolChanges,
  type EvidencePoolState,
  MAX_BUFFERED_CONFLICTS,
  MAX_PENDING_EVIDENCE,
  type PendingEvidence,
  type SignatureVerifier,
} from "./state.js";

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

export function evidenceKey(evidence: Evidence): string {
  return hex(evidenceItemHash(evidence));
}

function durationNanos(d: Duration): bigint {
  return d.seconds * 1_000_000_000n + BigInt(d.nanos);
}

/** v0.34's IsEvidenceExpired: too old by block count AND by time. */
export function isEvidenceExpired(chain: ChainState, height: bigint, time: Timestamp): boolean {
  const params = chain.consensusParams.evidence;
  const ageBlocks = chain.lastBlockHeight - height;
  const ageNanos = toNanos(chain.lastBlockTime) - toNanos(time);
  return ageBlocks > params.maxAgeNumBlocks && ageNanos > durationNanos(params.maxAgeDuration);
}

/** Whether the pool holds this evidence (by its key) as pending or committed. */
export function knownEvidence(pool: EvidencePoolState, key: string): "pending" | "committed" | undefined {
  if (pool.pending.some((p) => p.key === key)) return "pending";
  if (pool.committed.some((c) => c.key === key)) return "committed";
  return undefined;
}

/** Buffers a conflicting pair reported by consensus (ReportConflictingVotes); bounded, no duplicates. */
export function addConflictingVotes(pool: EvidencePoolState, voteA: Vote, voteB: Vote): EvidencePoolState {
  if (pool.conflicts.length >= MAX_BUFFERED_CONFLICTS || conflictProblem(voteA, voteB) !== undefined)
    return pool;
  const same = pool.conflicts.some(
    (c) =>
      c.voteA.height === voteA.height &&
      c.voteA.round === voteA.round &&
      c.voteA.type === voteA.type &&
      sameBytes(c.voteA.validatorAddress, voteA.validatorAddress),
  );
  return same ? pool : { ...pool, conflicts: [...pool.conflicts, { voteA, voteB }] };
}

function withPending(pool: EvidencePoolState, evidence: Evidence, key: string): EvidencePoolState {
  if (pool.pending.length >= MAX_PENDING_EVIDENCE) return pool;
  const item: PendingEvidence = {
    evidence,
    key,
    height: evidenceHeight(evidence),
    time: evidenceTime(evidence),
    size: Evidence.encode(evidence).finish().length,
  };
  const pending = [...pool.pending];
  let at = pending.length;
  while (at > 0 && pending[at - 1]!.height > item.height) at--;
  pending.splice(at, 0, item);
  return { ...pool, pending };
}

/**
 * After the block of `chain.lastBlockHeight` was committed (v0.34's Update): buffered conflicts
 * become evidence with the block time and validator set of their height, the block's evidence is
 * marked committed, and expired evidence is dropped.
 */
export function updateEvidencePool(
  pool: EvidencePoolState,
  chain: ChainState,
  blockEvidence: readonly Evidence[],
  history: EvidenceHistory,
): EvidencePoolState {
  let next: EvidencePoolState = { ...pool, conflicts: [] };
  for (const { voteA, voteB } of pool.conflicts) {
    const height = voteA.height;
    if (height > chain.lastBlockHeight) {
      next = { ...next, conflicts: [...next.conflicts, { voteA, voteB }] };
      continue;
    }
    const atLast = height === chain.lastBlockHeight;
    const time = atLast ? chain.lastBlockTime : history.blockTimeAt(height);
    const validators = atLast ? chain.lastValidators?.validators : history.validatorsAt(height);
    if (time === undefined || validators === undefined) continue;
    let evidence: Evidence;
    try {
      evidence = wrapDuplicateVoteEvidence(duplicateVoteEvidence(voteA, voteB, time, validators));
    } catch {
      continue; // not a conflict against that set (a validator that has left): nothing to prove
    }
    const key = evidenceKey(evidence);
    if (knownEvidence(next, key) === undefined && !isEvidenceExpired(chain, height, time))
      next = withPending(next, evidence, key);
  }
  const committedNow = blockEvidence.map((e) => ({
    key: evidenceKey(e),
    height: evidenceHeight(e),
    time: evidenceTime(e),
  }));
  const committedKeys = new Set(committedNow.map((c) => c.key));
  return {
    pending: next.pending.filter(
      (p) => !committedKeys.has(p.key) && !isEvidenceExpired(chain, p.height, p.time),
    ),
    committed: [...next.committed, ...committedNow].filter(
      (c) => !isEvidenceExpired(chain, c.height, c.time),
    ),
    conflicts: next.conflicts,
  };
}

/**
 * Bytes one evidence item of `size` bytes adds to an EvidenceList message (field 1: tag, length
 * prefix, the item): v0.34 measures evidence against max_bytes as that list's encoded size.
 */
function listEntryBytes(size: number): number {
  let prefix = 1;
  for (let n = size; n >= 0x80; n = Math.floor(n / 0x80)) prefix++;
  return 1 + prefix + size;
}

/**
 * Pending evidence for a proposal, in height order, while the EvidenceList of it stays within
 * `maxBytes`; `bytes` is that list's encoded size (what maxDataBytes subtracts, as v0.34 does).
 */
export function pendingEvidence(
  pool: EvidencePoolState,
  maxBytes: bigint,
): { evidence: Evidence[]; bytes: number } {
  const evidence: Evidence[] = [];
  let bytes = 0;
  for (const item of pool.pending) {
    const entry = listEntryBytes(item.size);
    if (BigInt(bytes + entry) > maxBytes) break;
    bytes += entry;
    evidence.push(item.evidence);
  }
  return { evidence, bytes };
}

export type EvidenceCheck =
  | { readonly kind: "valid"; readonly key: string; readonly alreadyPending: boolean }
  | { readonly kind: "invalid"; readonly reason: string };

/** Checks evidence from a peer, the RPC or a proposed block (v0.34's CheckEvidence for one item). */
export function checkEvidence(
  pool: EvidencePoolState,
  evidence: Evidence,
  chain: ChainState,
  history: EvidenceHistory,
  verify: SignatureVerifier,
): EvidenceCheck {
  try {
    validateEvidence(evidence);
  } catch (error) {
    if (error instanceof TypesError) return { kind: "invalid", reason: error.message };
    throw error;
  }
  const key = evidenceKey(evidence);
  const known = knownEvidence(pool, key);
  if (known === "committed") return { kind: "invalid", reason: "evidence was already committed" };
  if (known === "pending") return { kind: "valid", key, alreadyPending: true };
  const sum = evidence.sum!;
  const height = evidenceHeight(evidence);
  if (height > chain.lastBlockHeight)
    return { kind: "invalid", reason: `evidence from future height ${height}` };
  const time = height === chain.lastBlockHeight ? chain.lastBlockTime : history.blockTimeAt(height);
  if (time === undefined) return { kind: "invalid", reason: `no block stored at evidence height ${height}` };
  if (compareTime(time, evidenceTime(evidence)) !== 0) {
    return {
      kind: "invalid",
      reason: `evidence time differs from the time of the block at height ${height}`,
    };
  }
  if (isEvidenceExpired(chain, height, time))
    return { kind: "invalid", reason: `evidence from height ${height} is too old` };
  let problem: string | undefined;
  if (sum.$case === "lightClientAttackEvidence") {
    problem = lightClientAttackProblem(sum.lightClientAttackEvidence, chain, history);
  } else {
    const validators = validatorsAtHeight(chain, history, height);
    if (validators === undefined)
      return { kind: "invalid", reason: `no validator set stored for height ${height}` };
    problem = duplicateVoteProblem(sum.duplicateVoteEvidence, chain.chainId, validators, verify);
  }
  return problem === undefined
    ? { kind: "valid", key, alreadyPending: false }
    : { kind: "invalid", reason: problem };
}

/**
 * The heights whose block time, validator set and signed header checking this evidence reads: its
 * own height, and for a light client attack the conflicting block's height and our latest (the
 * trusted header of a forward attack).
 */
export function evidenceHistoryHeights(evidence: Evidence, chain: ChainState): bigint[] {
  const heights = [evidenceHeight(evidence)];
  const sum = evidence.sum;
  if (sum?.$case === "lightClientAttackEvidence") {
    const conflicting = sum.lightClientAttackEvidence.conflictingBlock?.signedHeader?.header?.height;
    if (conflicting !== undefined) heights.push(conflicting);
    heights.push(chain.lastBlockHeight);
  }
  return heights.filter((h) => h > 0n && h <= chain.lastBlockHeight);
}

/** Adds evidence that checkEvidence found valid (from a peer or the RPC). */
export function addVerifiedEvidence(pool: EvidencePoolState, evidence: Evidence): EvidencePoolState {
  const key = evidenceKey(evidence);
  return knownEvidence(pool, key) === undefined ? withPending(pool, evidence, key) : pool;
}

/** The evidence of a proposed block: each valid, none twice, within the evidence max_bytes. */
export function checkBlockEvidence(
  pool: EvidencePoolState,
  evidence: readonly Evidence[],
  chain: ChainState,
  history: EvidenceHistory,
  verify: SignatureVerifier,
): string | undefined {
  const seen = new Set<string>();
  let bytes = 0;
  for (const [i, item] of evidence.entries()) {
    const check = checkEvidence(pool, item, chain, history, verify);
    if (check.kind !== "valid") return `evidence ${i}: ${check.reason}`;
    if (seen.has(check.key)) return `evidence ${i} appears twice in the block`;
    seen.add(check.key);
    bytes += listEntryBytes(Evidence.encode(item).finish().length);
  }
  const max = chain.consensusParams.evidence.maxBytes;
  if (BigInt(bytes) > max)
    return `the block's evidence is ${bytes} bytes, over the evidence max_bytes ${max}`;
  return undefined;
}

/** The pool as the store left it: pending evidence in height order, committed remembered. */
export function evidencePoolFromStore(
  pending: readonly Evidence[],
  committed: readonly Evidence[],
): EvidencePoolState {
  let pool: EvidencePoolState = {
    pending: [],
    committed: committed.map((e) => ({
      key: evidenceKey(e),
      height: evidenceHeight(e),
      time: evidenceTime(e),
    })),
    conflicts: [],
  };
  for (const e of pending) pool = addVerifiedEvidence(pool, e);
  return pool;
}

/**
 * What the store must change to go from `before` to `after`: pending added and removed, committed
 * added (taken from `committedNow`, the evidence that became committed) and removed (expired).
 */
export function evidencePoolChanges(
  before: EvidencePoolState,
  after: EvidencePoolState,
  committedNow: readonly Evidence[] = [],
  height?: bigint,
): EvidencePoolChanges {
  const keys = (items: readonly { key: string }[]) => new Set(items.map((i) => i.key));
  const pendingBefore = keys(before.pending);
  const pendingAfter = keys(after.pending);
  const committedBefore = keys(before.committed);
  const committedAfter = keys(after.committed);
  const ref = (i: { key: string; height: bigint }) => ({ key: i.key, height: i.height });
  return {
    addPending: after.pending.filter((p) => !pendingBefore.has(p.key)).map((p) => p.evidence),
    removePending: before.pending.filter((p) => !pendingAfter.has(p.key)).map(ref),
    addCommitted: committedNow.filter((e) => {
      const key = evidenceKey(e);
      return committedAfter.has(key) && !committedBefore.has(key);
    }),
    removeCommitted: before.committed.filter((c) => !committedAfter.has(c.key)).map(ref),
    ...(height === undefined ? {} : { height }),
  };
}
