// Our own prevotes and precommits go out as SignVote effects; the signed vote comes back as
// VoteSigned and is counted then, like any other vote. A node outside the validator set, or a
// halted one, signs nothing.
import type { BlockID } from "../../wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import { addMillis, laterOf } from "../consensus-time.js";
import { EMPTY_BLOCK_ID } from "../state.js";
import { type Ctx, emit } from "./context.js";

/**
 * v0.34's voteTime: now, but never before the locked (or else proposal) block's time plus
 * time_iota_ms, so the next block's median time stays after this block's.
 */
function voteTime(ctx: Ctx) {
  const s = ctx.s;
  const held = s.lockedBlock ?? s.proposalBlock;
  if (held === undefined) return ctx.now;
  return laterOf(ctx.now, addMillis(held.block.header.time, s.chain.consensusParams.block.timeIotaMs));
}

function signVote(ctx: Ctx, type: SignedMsgType, blockId: BlockID | undefined): void {
  const s = ctx.s;
  if (s.ownIndex < 0 || s.ownAddress === undefined || s.halted !== undefined) return;
  emit(ctx, {
    type: "SignVote",
    vote: {
      type,
      height: s.height,
      round: s.round,
      blockId: blockId ?? EMPTY_BLOCK_ID,
      timestamp: voteTime(ctx),
      validatorAddress: s.ownAddress,
      validatorIndex: s.ownIndex,
      signature: new Uint8Array(0),
    },
  });
}

/** Prevote for `blockId`, or nil when undefined. */
export function signPrevote(ctx: Ctx, blockId: BlockID | undefined): void {
  signVote(ctx, SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, blockId);
}

/** Precommit for `blockId`, or nil when undefined. */
export function signPrecommit(ctx: Ctx, blockId: BlockID | undefined): void {
  signVote(ctx, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT, blockId);
}
