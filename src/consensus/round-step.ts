// The steps of a consensus round, numbered as Tendermint v0.34 numbers them (reference §1.5):
// the numbers appear in timeouts and events, the names in RoundState event data.

export enum RoundStep {
  NewHeight = 1,
  NewRound = 2,
  Propose = 3,
  Prevote = 4,
  PrevoteWait = 5,
  Precommit = 6,
  PrecommitWait = 7,
  Commit = 8,
}

const STEP_NAMES: Record<RoundStep, string> = {
  [RoundStep.NewHeight]: "RoundStepNewHeight",
  [RoundStep.NewRound]: "RoundStepNewRound",
  [RoundStep.Propose]: "RoundStepPropose",
  [RoundStep.Prevote]: "RoundStepPrevote",
  [RoundStep.PrevoteWait]: "RoundStepPrevoteWait",
  [RoundStep.Precommit]: "RoundStepPrecommit",
  [RoundStep.PrecommitWait]: "RoundStepPrecommitWait",
  [RoundStep.Commit]: "RoundStepCommit",
};

/** `RoundStepPropose` and so on: the `step` string of RoundState events and `dump_consensus_state`. */
export function roundStepName(step: RoundStep): string {
  return STEP_NAMES[step];
}
