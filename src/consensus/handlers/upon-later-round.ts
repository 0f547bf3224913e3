// L55: upon f+1 ⟨∗, h, round, ∗, ∗⟩ with round > round_p → StartRound(round). As the issue asks
// (and v0.34's vote sets do), the trigger here is +2/3 of the power voting (prevotes or precommits)
// in the later round: then that round is certainly under way among correct validators.
import { RoundStep } from "../round-step.js";
import { skipRound } from "../vote-keeper/thresholds.js";
import type { Ctx } from "./context.js";
import { startRound } from "./start-round.js";

export function uponLaterRound(ctx: Ctx): boolean {
  const s = ctx.s;
  const later = skipRound(s.votes, s.round);
  if (later === undefined || s.step === RoundStep.Commit) return false;
  startRound(ctx, later);
  return true;
}
