// LightClientAttackEvidence verified as v0.34's evidence pool does (verify + VerifyLightClientAttack
// + GetByzantineValidators), against our own signed headers and validator sets:
//  1. We hold the header at the common height and its validator set.
//  2. The trusted header: ours at the conflicting height; when we have none (a forward lunatic
//     attack) our latest, which must not be older than the conflicting block.
//  3. Not at the same height: the conflicting commit carries more than 1/3 of the common
//     validator set's power (light client trust level, signers found by address). At the same
//     height (equivocation, amnesia): the conflicting header must agree with ours on every field
//     derived from state (validators, next validators, consensus, app and last-results hashes).
//  4. The conflicting commit is signed by more than 2/3 of the conflicting validator set.
//  5. TotalVotingPower is the common set's total.
//  6. A conflicting block above our trusted height must be dated before our trusted header; any
//     other conflicting header must differ from ours (same hash: no conflict).
//  7. ByzantineValidators are exactly the validators v0.34 finds guilty, in its order.
// The time of the evidence equals our block time at the common height: checked with every kind
// in rules.ts. The verdict is the first broken rule's reason, or undefined.

import { upperHex } from "../bytes.js";
import { bytesEqual, compareBytes } from "../types/bytes.js";
import {
  DEFAULT_TRUST_LEVEL,
  verifyCommitLightSync,
  verifyCommitLightTrustingSync,
} from "../types/commit-verification.js";
import { compareTimestamps } from "../types/time.js";
import { ValidatorSet } from "../types/validator-set.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { LightClientAttackEvidence } from "../wire/generated/tendermint/types/evidence.js";
import { BlockIDFlag, type Header, type SignedHeader } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { headerHash } from "../wire/hashes.js";
import type { EvidenceHistory } from "./state.js";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const iso = (t: { seconds: bigint; nanos: number }) =>
  `${new Date(Number(t.seconds) * 1000).toISOString().slice(0, 19)}.${String(t.nanos).padStart(9, "0")}Z`;

/** The validator set of `height`: the chain state's for the last block, else the history's. */
export function validatorsAtHeight(
  chain: ChainState,
  history: EvidenceHistory,
  height: bigint,
): readonly Validator[] | undefined {
  return height === chain.lastBlockHeight ? chain.lastValidators?.validators : history.validatorsAt(height);
}

/**
 * v0.34's ConflictingHeaderIsInvalid: the conflicting header differs from ours in a field that
 * is derived from the state (so it cannot be an honest block of another round).
 */
export function conflictingHeaderIsInvalid(conflicting: Header, trusted: Header): boolean {
  return (
    !bytesEqual(trusted.validatorsHash, conflicting.validatorsHash) ||
    !bytesEqual(trusted.nextValidatorsHash, conflicting.nextValidatorsHash) ||
    !bytesEqual(trusted.consensusHash, conflicting.consensusHash) ||
    !bytesEqual(trusted.appHash, conflicting.appHash) ||
    !bytesEqual(trusted.lastResultsHash, conflicting.lastResultsHash)
  );
}

/**
 * v0.34's GetByzantineValidators: for a lunatic attack (invalid header), the common set's members
 * that signed the conflicting block; for an equivocation (same commit round), the conflicting
 * set's members that signed both blocks; for amnesia (other rounds) none. Sorted by power
 * (highest first), then address.
 */
export function byzantineValidators(
  e: LightClientAttackEvidence,
  commonVals: ValidatorSet,
  trusted: SignedHeader,
): Validator[] {
  const block = e.conflictingBlock!;
  const commit = block.signedHeader!.commit!;
  const found: Validator[] = [];
  if (conflictingHeaderIsInvalid(block.signedHeader!.header!, trusted.header!)) {
    for (const sig of commit.signatures) {
      if (sig.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT) continue;
      const member = commonVals.getByAddress(sig.validatorAddress);
      if (member !== undefined) found.push(member.validator);
    }
  } else if (trusted.commit!.round === commit.round) {
    const conflictingVals = block.validatorSet!.validators;
    commit.signatures.forEach((sigA, i) => {
      if (sigA.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT) return;
      const sigB = trusted.commit!.signatures[i];
      if (sigB?.blockIdFlag !== BlockIDFlag.BLOCK_ID_FLAG_COMMIT) return;
      const member = conflictingVals.find((v) => bytesEqual(v.address, sigA.validatorAddress));
      if (member !== undefined) found.push(member);
    });
  } else return [];
  return found.sort((a, b) =>
    a.votingPower !== b.votingPower
      ? a.votingPower > b.votingPower
        ? -1
        : 1
      : compareBytes(a.address, b.address),
  );
}

/** What is wrong with the evidence against our history, or undefined when it proves an attack. */
export function lightClientAttackProblem(
  e: LightClientAttackEvidence,
  chain: ChainState,
  history: EvidenceHistory,
): string | undefined {
  const block = e.conflictingBlock;
  const conflicting = block?.signedHeader;
  if (
    block?.validatorSet === undefined ||
    conflicting?.header === undefined ||
    conflicting.commit === undefined
  )
    return "the conflicting block is incomplete";
  const conflictingHeight = conflicting.header.height;
  const signedHeaderAt = (h: bigint) => history.signedHeaderAt?.(h);

  // 1. our header and validator set at the common height
  const commonHeader = signedHeaderAt(e.commonHeight);
  if (commonHeader?.header === undefined)
    return `no signed header stored at the common height ${e.commonHeight}`;
  const commonList = validatorsAtHeight(chain, history, e.commonHeight);
  if (commonList === undefined) return `no validator set stored for the common height ${e.commonHeight}`;
  const commonVals = ValidatorSet.fromValidators(commonList);

  // 2. the trusted header
  let trusted: SignedHeader | undefined = commonHeader;
  if (e.commonHeight !== conflictingHeight) {
    trusted = signedHeaderAt(conflictingHeight);
    if (trusted === undefined) {
      trusted = signedHeaderAt(chain.lastBlockHeight);
      if (trusted?.header === undefined)
        return `no signed header stored at our latest height ${chain.lastBlockHeight}`;
      if (compareTimestamps(trusted.header.time!, conflicting.header.time!) < 0)
        return `latest block time (${iso(trusted.header.time!)}) is before conflicting block time (${iso(conflicting.header.time!)})`;
    }
  }
  if (trusted.header === undefined || trusted.commit === undefined)
    return `the stored signed header at height ${trusted.header?.height ?? e.commonHeight} is incomplete`;

  // 3. the jump from the common set, or a header that cannot be an honest one
  if (e.commonHeight !== conflictingHeight) {
    try {
      verifyCommitLightTrustingSync(chain.chainId, commonVals, conflicting.commit, DEFAULT_TRUST_LEVEL);
    } catch (error) {
      return `skipping verification of conflicting block failed: ${messageOf(error)}`;
    }
  } else if (conflictingHeaderIsInvalid(conflicting.header, trusted.header)) {
    return "common height is the same as conflicting block height so expected the conflicting block to be correctly derived yet it wasn't";
  }

  // 4. the conflicting commit is by 2/3+ of the conflicting set
  try {
    const conflictingVals = ValidatorSet.fromValidators(block.validatorSet.validators);
    verifyCommitLightSync(
      chain.chainId,
      conflictingVals,
      conflicting.commit.blockId,
      conflictingHeight,
      conflicting.commit,
    );
  } catch (error) {
    return `invalid commit from conflicting block: ${messageOf(error)}`;
  }

  // 5. the total power is the common set's
  if (e.totalVotingPower !== commonVals.totalVotingPower)
    return `total voting power from the evidence and our validator set does not match (${e.totalVotingPower} != ${commonVals.totalVotingPower})`;

  // 6. a forward attack must break monotonic time; any other must differ from our header
  if (
    conflictingHeight > trusted.header.height &&
    compareTimestamps(conflicting.header.time!, trusted.header.time!) > 0
  ) {
    return `conflicting block doesn't violate monotonically increasing time (${iso(conflicting.header.time!)} is after ${iso(trusted.header.time!)})`;
  }
  const trustedHash = headerHash(trusted.header);
  if (bytesEqual(trustedHash, headerHash(conflicting.header)))
    return `trusted header hash matches the evidence's conflicting header hash: ${upperHex(trustedHash)}`;

  // 7. the byzantine validators v0.34 would name, in its order
  const expected = byzantineValidators(e, commonVals, trusted);
  if (expected.length !== e.byzantineValidators.length)
    return `expected ${expected.length} byzantine validators from evidence but got ${e.byzantineValidators.length}`;
  for (const [i, v] of expected.entries()) {
    const got = e.byzantineValidators[i]!;
    if (!bytesEqual(got.address, v.address))
      return `evidence contained a different byzantine validator address to the one we were expecting: expected ${upperHex(v.address)}, got ${upperHex(got.address)}`;
    if (got.votingPower !== v.votingPower)
      return `evidence contained a byzantine validator with a different power to the one we were expecting: expected ${v.votingPower}, got ${got.votingPower}`;
  }
  return undefined;
}
