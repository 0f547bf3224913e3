// What the reducer needs from other modules as pure functions, passed in when the reducer is
// made (a port): proposer selection belongs to the validator-set module (src/types/validator-set.ts,
// reference §8). Passing it in keeps the reducer free of a hard dependency and lets a simulation
// use the same reducer with the real rules.
import type { Validator, ValidatorSet } from "../wire/generated/tendermint/types/validator.js";

export interface ConsensusRules {
  /**
   * The proposer of `round` at a height whose set (as carried in the chain state, already
   * incremented for the height) is `validators`: round 0 is the set's proposer, round r the
   * proposer after r more IncrementProposerPriority steps. Pure and deterministic.
   */
  proposer(validators: ValidatorSet, round: number): Validator;
}
