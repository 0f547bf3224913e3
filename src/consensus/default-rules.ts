// The rules the node runs with: v0.34's proposer selection from src/types/validator-set.ts.
// Proposers are cached per (set, round) value identity so a simulation folding thousands of
// inputs does not redo the priority arithmetic; the cache holds only the latest set.
import { ValidatorSet } from "../types/validator-set.js";
import type {
  ValidatorSet as ProtoValidatorSet,
  Validator,
} from "../wire/generated/tendermint/types/validator.js";
import { ConsensusError } from "./errors.js";
import type { ConsensusRules } from "./rules.js";

const MAX_CACHED_ROUNDS = 1024;

export function createDefaultConsensusRules(): ConsensusRules {
  let cachedFor: ProtoValidatorSet | undefined;
  let cachedSet: ValidatorSet | undefined;
  const byRound = new Map<number, Validator>();
  return {
    proposer(validators, round) {
      if (cachedFor !== validators || byRound.size >= MAX_CACHED_ROUNDS) {
        cachedFor = validators;
        cachedSet = ValidatorSet.fromProto(validators);
        byRound.clear();
      }
      const known = byRound.get(round);
      if (known !== undefined) return known;
      const set = round === 0 ? cachedSet! : cachedSet!.copyIncrementProposerPriority(round);
      const proposer = set.getProposer();
      if (proposer === undefined)
        throw new ConsensusError("CONSENSUS_BAD_CHAIN_STATE", "the validator set is empty");
      byRound.set(round, proposer);
      return proposer;
    },
  };
}
