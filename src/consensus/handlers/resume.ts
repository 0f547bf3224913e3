// After a restart the log is replayed without carrying out its effects, so timers, outstanding
// requests and an unexecuted decision are gone. ConsensusResumed (logged after the replay) issues
// them again from the state alone. Our own vote of the current step is not asked for again: the
// state does not keep what we decided to vote, and the round's timeouts keep things moving.
import { timeoutPrecommitMs, timeoutPrevoteMs, timeoutProposeMs } from "../config.js";
import { millisUntil } from "../consensus-time.js";
import { RoundStep } from "../round-step.js";
import { type Ctx, precommitTimerRunning, scheduleTimeout } from "./context.js";
import { resumeProposal } from "./propose.js";
import { isOwnTurn } from "./start-round.js";

export function onResumed(ctx: Ctx): void {
  const s = ctx.s;
  const config = s.config;
  // L47 fired in this round: its timer was the latest one (no earlier step's replaces it).
  if (precommitTimerRunning(s)) {
    scheduleTimeout(ctx, RoundStep.PrecommitWait, timeoutPrecommitMs(config, s.round));
  }
  switch (s.step) {
    case RoundStep.NewHeight:
      scheduleTimeout(ctx, RoundStep.NewHeight, millisUntil(ctx.now, s.startTime));
      break;
    case RoundStep.NewRound:
      if (config.createEmptyBlocksIntervalMs > 0)
        scheduleTimeout(ctx, RoundStep.NewRound, config.createEmptyBlocksIntervalMs);
      break;
    case RoundStep.Propose:
      scheduleTimeout(ctx, RoundStep.Propose, timeoutProposeMs(config, s.round));
      if (isOwnTurn(s) && s.proposal === undefined) {
        // The reap or the signature may have been lost with the crash: ask again (the same
        // block when its signature was already requested).
        resumeProposal(ctx);
      }
      break;
    case RoundStep.Prevote:
    case RoundStep.PrevoteWait:
      // In PrevoteWait the prevote timer was running; in Prevote, L34 may fire again after this.
      if (s.step === RoundStep.PrevoteWait)
        scheduleTimeout(ctx, RoundStep.PrevoteWait, timeoutPrevoteMs(config, s.round));
      break;
    case RoundStep.Precommit:
    case RoundStep.PrecommitWait:
      // Its timer (if L47 fired) was re-issued above.
      break;
    case RoundStep.Commit:
      // CommitBlock may not have been carried out: finalizeCommit issues it again (its handler
      // must be idempotent: a block already saved and executed is answered from the stores).
      if (s.committed) ctx.s = { ...s, committed: false };
      break;
  }
}
