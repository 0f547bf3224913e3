// Timeouts: L57 (propose), L61 (prevote), L65 (precommit), and v0.34's two extra ones: the commit
// timeout that starts round 0 of the next height, and create_empty_blocks_interval, which makes a
// round 0 that waits for transactions propose anyway.
import { RoundStep } from "../round-step.js";
import { type Ctx, fired, publish, roundStateData, setStep } from "./context.js";
import { signPrecommit, signPrevote } from "./sign-vote.js";
import { enterPropose, startRound } from "./start-round.js";

export function onTimeout(ctx: Ctx, height: bigint, round: number, step: RoundStep): void {
  const s = ctx.s;
  if (height !== s.height) return;
  switch (step) {
    case RoundStep.NewHeight:
      // timeout_commit elapsed: L11 StartRound(0).
      if (s.step === RoundStep.NewHeight) startRound(ctx, 0);
      return;
    case RoundStep.NewRound:
      // create_empty_blocks_interval elapsed while round 0 waited for transactions.
      if (round === 0 && s.round === 0 && s.step === RoundStep.NewRound) enterPropose(ctx);
      return;
    case RoundStep.Propose:
      onTimeoutPropose(ctx, round);
      return;
    case RoundStep.PrevoteWait:
      onTimeoutPrevote(ctx, round);
      return;
    case RoundStep.PrecommitWait:
      onTimeoutPrecommit(ctx, round);
      return;
    default:
      return;
  }
}

// L57: OnTimeoutPropose(h, r): if h = h_p ∧ r = round_p ∧ step = propose → prevote nil.
function onTimeoutPropose(ctx: Ctx, round: number): void {
  if (round !== ctx.s.round || ctx.s.step !== RoundStep.Propose) return;
  fired(ctx, "L57");
  publish(ctx, "TimeoutPropose", roundStateData(ctx.s));
  setStep(ctx, RoundStep.Prevote);
  signPrevote(ctx, undefined);
}

// L61: OnTimeoutPrevote(h, r): if h = h_p ∧ r = round_p ∧ step = prevote → precommit nil.
function onTimeoutPrevote(ctx: Ctx, round: number): void {
  const step = ctx.s.step;
  if (round !== ctx.s.round || (step !== RoundStep.Prevote && step !== RoundStep.PrevoteWait)) return;
  fired(ctx, "L61");
  publish(ctx, "TimeoutWait", roundStateData(ctx.s));
  setStep(ctx, RoundStep.Precommit);
  signPrecommit(ctx, undefined);
}

// L65: OnTimeoutPrecommit(h, r): if h = h_p ∧ r = round_p → StartRound(r + 1).
function onTimeoutPrecommit(ctx: Ctx, round: number): void {
  if (round !== ctx.s.round || ctx.s.step === RoundStep.Commit) return;
  fired(ctx, "L65");
  publish(ctx, "TimeoutWait", roundStateData(ctx.s));
  startRound(ctx, round + 1);
}
