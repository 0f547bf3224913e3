// Our proposal (paper L14–L19): the valid block with its valid round when there is one, else a
// new block from reaped transactions and pending evidence (getValue()). The proposal is signed
// through the signer (SignProposal → ProposalSigned), then broadcast with its block parts.
import type { Evidence } from "../../wire/generated/tendermint/types/evidence.js";
import type { Proposal } from "../../wire/generated/tendermint/types/types.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import { buildProposalBlock } from "../proposal-block.js";
import { RoundStep } from "../round-step.js";
import type { HeldBlock } from "../state.js";
import { blockKeyOf } from "../vote-keeper/block-key.js";
import { commitFromPrecommits } from "../vote-keeper/commit-from-votes.js";
import { precommitsForBlock } from "../vote-keeper/thresholds.js";
import { type Ctx, emit, fired, publish } from "./context.js";

function requestSignature(ctx: Ctx, held: HeldBlock, polRound: number): void {
  const s = ctx.s;
  const proposal: Proposal = {
    type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
    height: s.height,
    round: s.round,
    polRound,
    blockId: held.blockId,
    timestamp: ctx.now,
    signature: new Uint8Array(0),
  };
  ctx.s = { ...s, signingProposalRound: s.round, signingProposalBlock: held };
  emit(ctx, { type: "SignProposal", proposal });
}

// L14–L19: our turn to propose in the current round.
export function decideProposal(ctx: Ctx): void {
  const s = ctx.s;
  if (s.halted !== undefined || s.signingProposalRound === s.round || s.reapRound === s.round) return;
  fired(ctx, "L14");
  if (s.validBlock !== undefined) {
    // L15: re-propose the valid value with its round as POL round.
    requestSignature(ctx, s.validBlock, s.validRound);
    return;
  }
  const params = s.chain.consensusParams;
  ctx.s = { ...s, reapRound: s.round };
  emit(ctx, {
    type: "ReapProposalBlock",
    height: s.height,
    round: s.round,
    maxBytes: params.block.maxBytes,
    maxGas: params.block.maxGas,
    maxEvidenceBytes: params.evidence.maxBytes,
    validatorCount: s.chain.validators?.validators.length ?? 0,
  });
}

/**
 * After a restart in our propose step without a proposal: the signer may have signed the block
 * it was asked for before the crash, so that block is asked for again (the signer answers with
 * its stored signature); only a proposal not yet sent to the signer is decided afresh.
 */
export function resumeProposal(ctx: Ctx): void {
  const s = ctx.s;
  const held = s.signingProposalBlock;
  if (s.signingProposalRound === s.round && held !== undefined) {
    const revalid =
      s.validBlock !== undefined && blockKeyOf(s.validBlock.blockId) === blockKeyOf(held.blockId);
    requestSignature(ctx, held, revalid ? s.validRound : -1);
    return;
  }
  ctx.s = { ...s, reapRound: -1, signingProposalRound: -1, signingProposalBlock: undefined };
  decideProposal(ctx);
}

/** The reaped contents of our proposal: build the block and ask for the proposal's signature. */
export function onProposalBlockReaped(
  ctx: Ctx,
  height: bigint,
  round: number,
  txs: readonly Uint8Array[],
  evidence: readonly Evidence[],
): void {
  const s = ctx.s;
  if (height !== s.height || round !== s.round || s.reapRound !== round || s.step !== RoundStep.Propose)
    return;
  if (s.proposal !== undefined || s.ownAddress === undefined) return;
  const lastDecided =
    s.lastCommit === undefined ? undefined : precommitsForBlock(s.lastCommit, s.lastCommitRound);
  const lastCommit =
    s.lastCommit !== undefined && lastDecided !== undefined
      ? commitFromPrecommits(s.lastCommit, s.lastCommitRound, lastDecided.blockId)
      : undefined;
  const held = buildProposalBlock({
    chain: s.chain,
    height,
    proposerAddress: s.ownAddress,
    txs,
    evidence,
    lastCommit,
  });
  // Without the last block's commit there is nothing valid to propose (v0.34 skips the proposal too).
  if (held === undefined) return;
  // The reap handler must keep within the limits; a block over max_bytes would be our own fault.
  const maxBytes = s.chain.consensusParams.block.maxBytes;
  if (BigInt(held.parts.byteSize) > maxBytes) {
    const reason = `our proposal block for height ${height} round ${round} is ${held.parts.byteSize} bytes, over max_bytes ${maxBytes}: the reaped txs and evidence exceed the limits`;
    ctx.s = { ...ctx.s, halted: reason };
    emit(ctx, { type: "Halt", reason });
    return;
  }
  requestSignature(ctx, held, -1);
}

/** Our signed proposal: it becomes the round's proposal, and goes out with its parts. */
export function onProposalSigned(ctx: Ctx, proposal: Proposal): void {
  const s = ctx.s;
  const held = s.signingProposalBlock;
  if (held === undefined || proposal.height !== s.height || proposal.round !== s.signingProposalRound) return;
  if (proposal.round !== s.round || s.proposal !== undefined) return;
  ctx.s = {
    ...s,
    proposal,
    proposalParts: held.parts,
    proposalBlock: held,
    proposalBlockValid: true,
    signingProposalBlock: undefined,
  };
  emit(ctx, { type: "BroadcastProposal", proposal });
  for (const part of held.parts.parts) {
    emit(ctx, { type: "BroadcastBlockPart", height: s.height, round: s.round, part: part! });
  }
  publish(ctx, "CompleteProposal", {
    kind: "CompleteProposal",
    height: s.height,
    round: s.round,
    step: "RoundStepPropose",
    blockId: held.blockId,
  });
}
