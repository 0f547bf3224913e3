// The rules the node runs with: v0.34's proposer selection from src/types/validator-set.ts. The
// sets the reducer holds are protobuf values; converting one to the class (which checks it) is
// remembered per value (a WeakMap), so a simulation folding thousands of inputs does not redo it.
// The memo never changes an answer, only its cost.
import { ValidatorSet } from "../types/validator-set.js";
import type {
  ValidatorSet as ProtoValidatorSet,
  Validator,
} from "../wire/generated/tendermint/types/validator.js";
import { ConsensusError } from "./errors.js";
import type { ConsensusRules } from "./rules.js";

export function createDefaultConsensusRules(): ConsensusRules {
  const classes = new WeakMap<ProtoValidatorSet, ValidatorSet>();
  const toClass = (proto: ProtoValidatorSet): ValidatorSet => {
    let set = classes.get(proto);
    if (set === undefined) {
      set = ValidatorSet.fromProto(proto);
      classes.set(proto, set);
    }
    return set;
  };
  const incrementProposerPriority = (validators: ProtoValidatorSet, times: number): ProtoValidatorSet => {
    const next = toClass(validators).copyIncrementProposerPriority(times);
    const proto = next.toProto();
    classes.set(proto, next);
    return proto;
  };
  const proposerOf = (validators: ProtoValidatorSet): Validator => {
    const proposer = toClass(validators).getProposer();
    if (proposer === undefined)
      throw new ConsensusError("CONSENSUS_BAD_CHAIN_STATE", "the validator set is empty");
    return proposer;
  };
  return {
    incrementProposerPriority,
    proposerOf,
    proposer: (validators, round) =>
      round === 0 ? proposerOf(validators) : proposerOf(incrementProposerPriority(validators, round)),
  };
}
