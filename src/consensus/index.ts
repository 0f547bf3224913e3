// The consensus module: the Tendermint algorithm as a pure reducer (Algorithm 1 of "The latest
// gossip on BFT consensus", with CometBFT v0.34's block parts, POL rounds, timeouts, BFT time
// and create_empty_blocks). It owns the round state machine, the vote keeper and the proposal
// block's construction; signing, networking, validation against the app and storage are effects.
export { medianCommitTime, weightedMedian } from "./bft-time.js";
export {
  type ConsensusConfig,
  checkConsensusConfig,
  DEFAULT_CONSENSUS_CONFIG,
  type TestOnlyBrokenRule,
  timeoutPrecommitMs,
  timeoutPrevoteMs,
  timeoutProposeMs,
  waitsForTxs,
} from "./config.js";
export { createDefaultConsensusRules } from "./default-rules.js";
export type * from "./effect.js";
export { ConsensusError, type ConsensusErrorCode } from "./errors.js";
export { orderConflictingVotes } from "./handlers/receive-vote.js";
export type * from "./input.js";
export { CONSENSUS_INPUT_TYPES, type ConsensusInput, type ConsensusInputType } from "./input.js";
export { blockTimeProblem, buildProposalBlock, proposalBlockTime } from "./proposal-block.js";
export { type ConsensusReducer, type ConsensusTransition, createConsensusReducer } from "./reducer.js";
export { RoundStep, roundStepName } from "./round-step.js";
export type { ConsensusRules } from "./rules.js";
export {
  type ConsensusState,
  type ConsensusStateOptions,
  type HeldBlock,
  initialConsensusState,
} from "./state.js";
export {
  type SignatureVerifier,
  type VerifyOutcome,
  verifyConsensusInput,
  verifyProposal,
  verifyVote,
} from "./verify-input.js";
export * from "./vote-keeper/index.js";
