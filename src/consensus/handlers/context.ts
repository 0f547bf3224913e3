// The working context of one reduction: the state as it evolves and the effects produced so far.
// Handlers replace `ctx.s` with new immutable states and append effects; the reducer returns both.
// The context lives only inside one call of the reducer, so the reducer stays pure.
import type { Timestamp } from "../../wire/generated/google/protobuf/timestamp.js";
import type { ConsensusEffect, ConsensusEventData, ConsensusEventName } from "../effect.js";
import type { RuleId } from "../paper-lines.js";
import { RoundStep, roundStepName } from "../round-step.js";
import type { ConsensusRules } from "../rules.js";
import type { ConsensusState } from "../state.js";

export interface Ctx {
  s: ConsensusState;
  readonly effects: ConsensusEffect[];
  /** The input's log time: the reducer's only clock. */
  readonly now: Timestamp;
  readonly rules: ConsensusRules;
  /** The rules that fired, in order, when the reducer was made with `trace` (else undefined). */
  readonly fired?: RuleId[];
}

/** Notes that a rule of Algorithm 1 fired (only a traced reducer keeps the list). */
export function fired(ctx: Ctx, rule: RuleId): void {
  ctx.fired?.push(rule);
}

export function emit(ctx: Ctx, effect: ConsensusEffect): void {
  ctx.effects.push(effect);
}

export function publish(ctx: Ctx, name: ConsensusEventName, data: ConsensusEventData): void {
  ctx.effects.push({ type: "PublishEvent", name, data });
}

export function roundStateData(s: ConsensusState): ConsensusEventData {
  return { kind: "RoundState", height: s.height, round: s.round, step: roundStepName(s.step) };
}

/** Moves to `step` (in the current round) and publishes NewRoundStep, as every v0.34 step change does. */
export function setStep(ctx: Ctx, step: RoundStep): void {
  ctx.s = { ...ctx.s, step };
  publish(ctx, "NewRoundStep", roundStateData(ctx.s));
}

/**
 * Asks the ticker for a timeout. The ticker keeps only the latest request (switchMap), so, as
 * v0.34's ticker does, a timeout of an earlier step of the round is not requested once
 * timeoutPrecommit (L47) runs: it would cancel the one timer that still ends the round.
 */
export function scheduleTimeout(ctx: Ctx, step: RoundStep, durationMs: number, round = ctx.s.round): void {
  if (precommitTimerRunning(ctx.s, round) && step < RoundStep.PrecommitWait) return;
  emit(ctx, { type: "ScheduleTimeout", height: ctx.s.height, round, step, durationMs });
}

/** Whether L47 started timeoutPrecommit of `round`, the current round, and it has not fired. */
export function precommitTimerRunning(s: ConsensusState, round = s.round): boolean {
  return (
    round === s.round &&
    s.precommitWaitRound === round &&
    s.step !== RoundStep.NewHeight &&
    s.step !== RoundStep.Commit
  );
}
