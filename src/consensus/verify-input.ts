// The source step in front of the consensus log: a vote or proposal from a peer enters the log
// only once its shape is valid and its signature verifies against the validator who must have
// signed it, so the reducer (and every replay) trusts what it folds and never verifies again.
// Pure given the injected verifier (node:crypto's ed25519 in the node, anything in tests).
import { TypesError } from "../types/errors.js";
import { validateProposal } from "../types/validate-proposal.js";
import { validateVote } from "../types/validate-vote.js";
import type { Proposal, Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { proposalSignBytes, voteSignBytes } from "../wire/sign-bytes.js";
import type { ConsensusInput } from "./input.js";
import type { ConsensusRules } from "./rules.js";
import type { ConsensusState } from "./state.js";
import { sameBytes } from "./vote-keeper/block-key.js";

export type SignatureVerifier = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
) => boolean;

export type VerifyOutcome =
  /** Log it. */
  | { readonly kind: "accept" }
  /** Not for us now (another height, a round too far ahead): drop it, the peer did nothing wrong. */
  | { readonly kind: "ignore"; readonly reason: string }
  /** Bad data: drop it and report the peer. */
  | { readonly kind: "reject"; readonly reason: string };

const ACCEPT: VerifyOutcome = { kind: "accept" };

function ed25519Key(validator: Validator): Uint8Array | undefined {
  const sum = validator.pubKey.sum;
  return sum?.$case === "ed25519" ? sum.ed25519 : undefined;
}

function shapeProblem(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof TypesError) return error.message;
    throw error;
  }
}

/** The set a vote of `height` is counted against: this height's, the last one's, or the next one's. */
function validatorsFor(state: ConsensusState, height: bigint): readonly Validator[] | undefined {
  const chain = state.chain;
  if (height === state.height) return chain.validators?.validators;
  if (height === state.height - 1n) return chain.lastValidators?.validators;
  if (height === state.height + 1n) return chain.nextValidators?.validators;
  return undefined;
}

export function verifyVote(state: ConsensusState, vote: Vote, verify: SignatureVerifier): VerifyOutcome {
  const problem = shapeProblem(() => validateVote(vote));
  if (problem !== undefined) return { kind: "reject", reason: problem };
  const validators = validatorsFor(state, vote.height);
  if (validators === undefined)
    return { kind: "ignore", reason: `vote for height ${vote.height} at height ${state.height}` };
  const validator = validators[vote.validatorIndex];
  if (validator === undefined || !sameBytes(validator.address, vote.validatorAddress)) {
    return {
      kind: "reject",
      reason: `vote.validatorIndex ${vote.validatorIndex} does not name vote.validatorAddress at height ${vote.height}`,
    };
  }
  const key = ed25519Key(validator);
  if (key === undefined)
    return { kind: "reject", reason: `validator ${vote.validatorIndex} has no ed25519 key` };
  if (!verify(key, voteSignBytes(state.chain.chainId, vote), vote.signature)) {
    return {
      kind: "reject",
      reason: `vote.signature of validator ${vote.validatorIndex} at height ${vote.height} round ${vote.round} does not verify`,
    };
  }
  return ACCEPT;
}

export function verifyProposal(
  state: ConsensusState,
  proposal: Proposal,
  rules: ConsensusRules,
  verify: SignatureVerifier,
): VerifyOutcome {
  const problem = shapeProblem(() => validateProposal(proposal));
  if (problem !== undefined) return { kind: "reject", reason: problem };
  if (proposal.height !== state.height) {
    return { kind: "ignore", reason: `proposal for height ${proposal.height} at height ${state.height}` };
  }
  // Only the current round's (v0.34 does the same; gossip sends a peer the proposal of its round):
  // the proposer of a later round is known only once the node has entered it, as it depends on
  // the rounds entered on the way.
  if (proposal.round !== state.round) {
    return { kind: "ignore", reason: `proposal for round ${proposal.round} at round ${state.round}` };
  }
  const validators = state.roundValidators;
  if (validators === undefined) return { kind: "ignore", reason: "no validator set yet" };
  const proposer = state.proposer ?? rules.proposerOf(validators);
  const key = ed25519Key(proposer);
  if (
    key === undefined ||
    !verify(key, proposalSignBytes(state.chain.chainId, proposal), proposal.signature)
  ) {
    return {
      kind: "reject",
      reason: `proposal.signature for height ${proposal.height} round ${proposal.round} is not its proposer's`,
    };
  }
  return ACCEPT;
}

/**
 * The decision for any input from outside: votes and proposals are checked, everything else
 * (block parts are proven against the proposal inside the reducer; timeouts and answers of our
 * own effect handlers) passes.
 */
export function verifyConsensusInput(
  state: ConsensusState,
  input: ConsensusInput,
  rules: ConsensusRules,
  verify: SignatureVerifier,
): VerifyOutcome {
  if (!state.started)
    return input.type === "ConsensusStarted" ? ACCEPT : { kind: "ignore", reason: "consensus not started" };
  switch (input.type) {
    case "VoteReceived":
      return verifyVote(state, input.vote, verify);
    case "ProposalReceived":
      return verifyProposal(state, input.proposal, rules, verify);
    default:
      return ACCEPT;
  }
}
