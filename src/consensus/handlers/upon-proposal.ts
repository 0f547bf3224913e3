// The prevote decision on a proposal (paper L22 and L28), taken in the propose step once the
// proposal's block is complete and its validity known.
import { RoundStep } from "../round-step.js";
import type { ConsensusState, HeldBlock } from "../state.js";
import { blockKeyOf, sameBytes } from "../vote-keeper/block-key.js";
import { polkaForBlock } from "../vote-keeper/thresholds.js";
import { type Ctx, setStep } from "./context.js";
import { signPrevote } from "./sign-vote.js";

export type ProposalValue =
  | { readonly kind: "complete"; readonly held: HeldBlock; readonly valid: boolean | undefined }
  /** The proposal's parts assembled into something that is not its block, or did not decode. */
  | { readonly kind: "invalid" }
  | { readonly kind: "incomplete" };

/** The value v of the current round's proposal, as far as we have it. */
export function proposalValue(s: ConsensusState): ProposalValue {
  const proposal = s.proposal;
  if (proposal === undefined || proposal.round !== s.round) return { kind: "incomplete" };
  const psh = proposal.blockId.partSetHeader;
  const parts = s.proposalParts;
  const collectingProposal =
    parts !== undefined && parts.header.total === psh.total && sameBytes(parts.header.hash, psh.hash);
  if (!collectingProposal) return { kind: "incomplete" };
  const held = s.proposalBlock;
  if (held === undefined)
    return s.proposalBlockValid === false ? { kind: "invalid" } : { kind: "incomplete" };
  // The parts are the proposal's (proven against its part-set hash) but the block is not its block.
  if (!sameBytes(held.blockId.hash, proposal.blockId.hash)) return { kind: "invalid" };
  return { kind: "complete", held, valid: s.proposalBlockValid };
}

function lockAllows(s: ConsensusState, held: HeldBlock, polRound: number): boolean {
  if (s.config.testOnlyBreakRule === "ignore-lock") return true;
  if (s.lockedRound === -1 || s.lockedRound <= polRound) return true;
  return s.lockedBlock !== undefined && blockKeyOf(s.lockedBlock.blockId) === blockKeyOf(held.blockId);
}

function prevoteAndMove(ctx: Ctx, held: HeldBlock | undefined): void {
  setStep(ctx, RoundStep.Prevote);
  signPrevote(ctx, held?.blockId);
}

// L22: upon ⟨PROPOSAL, h, r, v, −1⟩ from proposer(h, r) while step = propose
// L28: upon ⟨PROPOSAL, h, r, v, vr⟩ from proposer(h, r) and 2f+1 ⟨PREVOTE, h, vr, id(v)⟩
//      while step = propose ∧ (vr ≥ 0 ∧ vr < r)
export function uponProposal(ctx: Ctx): boolean {
  const s = ctx.s;
  // Also from NewRound: a round 0 waiting for transactions still prevotes a complete proposal
  // (v0.34 handles a complete proposal in any step up to propose), or it could never progress
  // when only the proposer's mempool has transactions.
  if ((s.step !== RoundStep.Propose && s.step !== RoundStep.NewRound) || s.proposal === undefined)
    return false;
  const value = proposalValue(s);
  if (value.kind === "incomplete") return false;
  if (value.kind === "invalid") {
    prevoteAndMove(ctx, undefined);
    return true;
  }
  if (value.valid === undefined) return false;
  const polRound = s.proposal.polRound;
  if (polRound === -1) {
    // L22–L27: valid(v) ∧ (lockedRound = −1 ∨ lockedValue = v) → prevote id(v), else nil.
    prevoteAndMove(ctx, value.valid && lockAllows(s, value.held, -1) ? value.held : undefined);
    return true;
  }
  const polka = polkaForBlock(s.votes, polRound);
  if (polka === undefined || polka.key !== blockKeyOf(value.held.blockId)) return false;
  // L28–L33: valid(v) ∧ (lockedRound ≤ vr ∨ lockedValue = v) → prevote id(v), else nil.
  prevoteAndMove(ctx, value.valid && lockAllows(s, value.held, polRound) ? value.held : undefined);
  return true;
}
