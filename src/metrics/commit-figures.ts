// What v0.34 records about each committed block (consensus/state.go recordMetrics), as a pure
// function of the block and the validator sets, so the projection only sets gauges.

import { bytesEqual, upperHex } from "../bytes.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import { Block as BlockCodec } from "../wire/generated/tendermint/types/block.js";
import { BlockIDFlag, type Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";

export interface CommitFigures {
  height: bigint;
  validators: number;
  validatorsPower: bigint;
  missingValidators: number;
  missingValidatorsPower: bigint;
  byzantineValidators: number;
  byzantineValidatorsPower: bigint;
  numTxs: number;
  blockSizeBytes: number;
  /** Our validator's line in the last commit, when we were in the set that signed it. */
  own?: { address: string; power: bigint; signed: boolean };
}

export interface CommitContext {
  /** The set that decides this block (v0.34's cs.Validators). */
  validators: readonly Validator[];
  /** The set that signed the block's last commit (cs.LastValidators). */
  lastValidators: readonly Validator[];
  initialHeight: bigint;
  ownAddress: Uint8Array | undefined;
}

export function commitFigures(block: Block, ctx: CommitContext): CommitFigures {
  const height = block.header.height;
  let validatorsPower = 0n;
  for (const v of ctx.validators) validatorsPower += v.votingPower;
  let missingValidators = 0;
  let missingValidatorsPower = 0n;
  let own: CommitFigures["own"];
  // The first block has no last commit to count (v0.34: height > initial height).
  if (height > ctx.initialHeight) {
    const sigs = block.lastCommit?.signatures ?? [];
    ctx.lastValidators.forEach((v, i) => {
      const flag = sigs[i]?.blockIdFlag ?? BlockIDFlag.BLOCK_ID_FLAG_ABSENT;
      if (flag === BlockIDFlag.BLOCK_ID_FLAG_ABSENT) {
        missingValidators++;
        missingValidatorsPower += v.votingPower;
      }
      if (ctx.ownAddress !== undefined && bytesEqual(v.address, ctx.ownAddress)) {
        own = {
          address: upperHex(v.address),
          power: v.votingPower,
          signed: flag === BlockIDFlag.BLOCK_ID_FLAG_COMMIT,
        };
      }
    });
  }
  let byzantineValidators = 0;
  let byzantineValidatorsPower = 0n;
  for (const ev of block.evidence?.evidence ?? []) {
    if (ev.sum?.$case !== "duplicateVoteEvidence") continue;
    const address = ev.sum.duplicateVoteEvidence.voteA?.validatorAddress;
    const val = address && ctx.validators.find((v) => bytesEqual(v.address, address));
    if (val) {
      byzantineValidators++;
      byzantineValidatorsPower += val.votingPower;
    }
  }
  return {
    height,
    validators: ctx.validators.length,
    validatorsPower,
    missingValidators,
    missingValidatorsPower,
    byzantineValidators,
    byzantineValidatorsPower,
    numTxs: block.data.txs.length,
    blockSizeBytes: BlockCodec.encode(block).finish().length,
    ...(own ? { own } : {}),
  };
}

/**
 * v0.34's prevote delays of a decided round: seconds from the proposal's timestamp to the prevote
 * that brought the power past 2/3 (votes taken in timestamp order), and to the last prevote when
 * every validator prevoted.
 */
export function prevoteDelays(
  proposalTimeMs: number,
  prevotes: readonly (Vote | undefined)[],
  powers: readonly bigint[],
  totalPower: bigint,
): { quorum: number | undefined; full: number | undefined } {
  const cast: { ms: number; power: bigint }[] = [];
  prevotes.forEach((v, i) => {
    if (v?.timestamp) cast.push({ ms: timeMs(v.timestamp), power: powers[i] ?? 0n });
  });
  cast.sort((a, b) => a.ms - b.ms);
  let seen = 0n;
  let quorum: number | undefined;
  for (const c of cast) {
    seen += c.power;
    if (seen >= (totalPower * 2n) / 3n + 1n) {
      quorum = (c.ms - proposalTimeMs) / 1000;
      break;
    }
  }
  const all = cast.length === powers.length && cast.length > 0;
  return { quorum, full: all ? (cast[cast.length - 1]!.ms - proposalTimeMs) / 1000 : undefined };
}

export function timeMs(t: { seconds: bigint; nanos: number }): number {
  return Number(t.seconds) * 1000 + t.nanos / 1e6;
}
