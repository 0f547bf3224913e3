// What the reducer needs from other modules as pure functions, passed in when the reducer is
// made (a port): proposer selection belongs to the validator-set module (src/types/validator-set.ts,
// reference §8). Passing it in keeps the reducer free of a hard dependency and lets a simulation
// use the same reducer with the real rules.
import type { Validator, ValidatorSet } from "../wire/generated/tendermint/types/validator.js";

export interface ConsensusRules {
  /**
   * Go's Copy + IncrementProposerPriority(times), times ≥ 1. Not the same as `times` single
   * increments (rescaling and centring run once per call), so the reducer increments by
   * (new round − current round) each time it enters a round, as v0.34 does: the proposer of a
   * round depends on the rounds actually entered at the height.
   */
  incrementProposerPriority(validators: ValidatorSet, times: number): ValidatorSet;
  /** The set's proposer: the validator its last increment chose. */
  proposerOf(validators: ValidatorSet): Validator;
  /**
   * The proposer of `round` reached directly from round 0 of a height whose set is `validators`
   * (round 0: the set's proposer). Equal to the reducer's when it skipped straight to `round`.
   */
  proposer(validators: ValidatorSet, round: number): Validator;
}
