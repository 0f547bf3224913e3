// The source step in front of the consensus log: a vote or proposal from a peer enters the log
// only once its shape is valid and its signature verifies against the validator who must have
// signed it, so the reducer (and every replay) trusts what it folds and never verifies again.
// Pure given the injected verifier (node:crypto's ed25519 in the node, anything in tests).
// What the node already holds (the round's proposal, a part it has, a vote it counted, byte for
// byte) is dropped here, before the signature check and the log: in a full mesh each proposal,
// part and vote arrives from its author and again from relays, and the reducer would fold the
// copies to nothing anyway.
import { TypesError } from "../types/errors.js";
import { hasPart } from "../types/part-set.js";
import { validateProposal } from "../types/validate-proposal.js";
import { validateVote } from "../types/validate-vote.js";
import { type Proposal, SignedMsgType, type Vote } from "../wire/generated/tendermint/types/types.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import { proposalSignBytes, voteSignBytes } from "../wire/sign-bytes.js";
import type { ConsensusInput } from "./input.js";
import type { ConsensusRules } from "./rules.js";
import type { ConsensusState } from "./state.js";
import { sameBytes } from "./vote-keeper/block-key.js";
import { type HeightVotes, roundVotes } from "./vote-keeper/height-votes.js";

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

/** The votes of `height` the node keeps: this height's, or the last one's (its last commit). */
function votesOf(state: ConsensusState, height: bigint): HeightVotes | undefined {
  if (height === state.height) return state.votes;
  if (height === state.height - 1n) return state.lastCommit;
  return undefined;
}

/** Whether the very same vote (same validator, same signature) is counted already. */
function countedAlready(state: ConsensusState, vote: Vote): boolean {
  const votes = votesOf(state, vote.height);
  const round = votes === undefined ? undefined : roundVotes(votes, vote.round);
  if (round === undefined) return false;
  const tally = vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? round.prevotes : round.precommits;
  const held = tally.votes[vote.validatorIndex];
  return (
    held !== undefined &&
    sameBytes(held.validatorAddress, vote.validatorAddress) &&
    sameBytes(held.signature, vote.signature)
  );
}

export function verifyVote(state: ConsensusState, vote: Vote, verify: SignatureVerifier): VerifyOutcome {
  const problem = shapeProblem(() => validateVote(vote));
  if (problem !== undefined) return { kind: "reject", reason: problem };
  const validators = validatorsFor(state, vote.height);
  if (validators === undefined)
    return { kind: "ignore", reason: `vote for height ${vote.height} at height ${state.height}` };
  if (countedAlready(state, vote)) return { kind: "ignore", reason: "vote counted already" };
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
  // v0.34 keeps the first proposal of a round and ignores any later one, signed or not.
  if (state.proposal !== undefined) return { kind: "ignore", reason: "the round's proposal is here already" };
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
 * A part the reducer would fold to nothing: of the current height while no part set is being
 * collected, or once its block is complete, or one the set holds already (a duplicate is never a
 * fault: relays send what the author sent too). Other heights and bad parts are the reducer's.
 */
function partNeeded(state: ConsensusState, height: bigint, index: number): VerifyOutcome {
  if (height !== state.height) return ACCEPT;
  const parts = state.proposalParts;
  if (parts === undefined) return { kind: "ignore", reason: "no part set is being collected" };
  if (state.proposalBlock !== undefined) return { kind: "ignore", reason: "the block is complete" };
  if (Number.isInteger(index) && index >= 0 && index < parts.header.total && hasPart(parts, index))
    return { kind: "ignore", reason: `block part ${index} is here already` };
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
    case "BlockPartReceived":
      return partNeeded(state, input.height, input.part.index);
    default:
      return ACCEPT;
  }
}
