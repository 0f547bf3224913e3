// Upon-rules on the current round's prevotes: L36 (polka for the proposal: lock, precommit, valid
// value), L44 (polka for nil: precommit nil), L34 (polka for anything: start timeoutPrevote), and
// v0.34's fill-in for a polka on a block we do not have: collect that block's parts.

import { timeoutPrevoteMs } from "../config.js";
import { RoundStep } from "../round-step.js";
import { blockKeyOf, sameBytes } from "../vote-keeper/block-key.js";
import { polkaAny, polkaForBlock, polkaForNil } from "../vote-keeper/thresholds.js";
import { type Ctx, publish, roundStateData, scheduleTimeout, setStep } from "./context.js";
import { partSetFor } from "./part-set-for.js";
import { signPrecommit } from "./sign-vote.js";
import { proposalValue } from "./upon-proposal.js";

function inPrevoteStep(step: RoundStep): boolean {
  return step === RoundStep.Prevote || step === RoundStep.PrevoteWait;
}

// L36: upon ⟨PROPOSAL, h, r, v, ∗⟩ from proposer(h, r) and 2f+1 ⟨PREVOTE, h, r, id(v)⟩
//      while valid(v) ∧ step ≥ prevote for the first time
export function uponPolkaForProposal(ctx: Ctx): boolean {
  const s = ctx.s;
  if (s.step < RoundStep.Prevote || s.step === RoundStep.Commit || s.polkaBlockRound === s.round)
    return false;
  const value = proposalValue(s);
  if (value.kind !== "complete" || value.valid !== true) return false;
  const broken = s.config.testOnlyBreakRule === "precommit-without-polka";
  const polka = polkaForBlock(s.votes, s.round);
  const polkaForV = polka !== undefined && polka.key === blockKeyOf(value.held.blockId);
  if (!polkaForV && !(broken && s.step === RoundStep.Prevote)) return false;
  const held = value.held;
  ctx.s = { ...s, polkaBlockRound: s.round };
  if (inPrevoteStep(s.step)) {
    publish(ctx, "Polka", roundStateData(ctx.s));
    // L38–L41: lockedValue ← v, lockedRound ← r, precommit id(v), step ← precommit.
    const relock =
      s.lockedBlock !== undefined && blockKeyOf(s.lockedBlock.blockId) === blockKeyOf(held.blockId);
    ctx.s = { ...ctx.s, lockedRound: s.round, lockedBlock: held };
    publish(ctx, relock ? "Relock" : "Lock", roundStateData(ctx.s));
    setStep(ctx, RoundStep.Precommit);
    signPrecommit(ctx, held.blockId);
  }
  if (polkaForV) {
    // L42–L43: validValue ← v, validRound ← r.
    ctx.s = { ...ctx.s, validRound: s.round, validBlock: held };
    publish(ctx, "ValidBlock", roundStateData(ctx.s));
  }
  return true;
}

// L44: upon 2f+1 ⟨PREVOTE, h, r, nil⟩ while step = prevote
export function uponPolkaForNil(ctx: Ctx): boolean {
  const s = ctx.s;
  if (!inPrevoteStep(s.step)) return false;
  if (!polkaForNil(s.votes, s.round)) return false;
  publish(ctx, "Polka", roundStateData(s));
  setStep(ctx, RoundStep.Precommit);
  signPrecommit(ctx, undefined);
  return true;
}

// L34: upon 2f+1 ⟨PREVOTE, h, r, ∗⟩ while step = prevote for the first time
export function uponPolkaAny(ctx: Ctx): boolean {
  const s = ctx.s;
  if (s.step !== RoundStep.Prevote || s.prevoteWaitRound === s.round) return false;
  if (!polkaAny(s.votes, s.round)) return false;
  ctx.s = { ...s, prevoteWaitRound: s.round };
  scheduleTimeout(ctx, RoundStep.PrevoteWait, timeoutPrevoteMs(s.config, s.round));
  setStep(ctx, RoundStep.PrevoteWait);
  return true;
}

/**
 * v0.34: a polka in the current round for a block we are not collecting means most validators
 * have it; start collecting its parts so it can become our valid block (and be committed).
 */
export function uponPolkaForUnknownBlock(ctx: Ctx): boolean {
  const s = ctx.s;
  if (s.step === RoundStep.Commit) return false;
  const polka = polkaForBlock(s.votes, s.round);
  if (polka === undefined) return false;
  const header = polka.blockId.partSetHeader;
  const parts = s.proposalParts;
  if (parts !== undefined && parts.header.total === header.total && sameBytes(parts.header.hash, header.hash))
    return false;
  if (s.proposalBlock !== undefined && blockKeyOf(s.proposalBlock.blockId) === polka.key) return false;
  const fresh = partSetFor(header, s.chain.consensusParams.block.maxBytes);
  if (fresh === undefined) return false;
  ctx.s = {
    ...s,
    proposalParts: fresh,
    proposalBlock: undefined,
    proposalBlockValid: undefined,
  };
  return true;
}
