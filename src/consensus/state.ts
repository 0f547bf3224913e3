// The consensus state: where the node is in the algorithm (height, round, step), what it has
// seen (proposal, block parts, votes) and what it holds (lock, valid block). Immutable values
// only: every transition returns a new state sharing what did not change.

import type { PartSetState } from "../types/part-set.js";
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { BlockID, Commit, Proposal, Vote } from "../wire/generated/tendermint/types/types.js";
import type {
  ValidatorSet as ProtoValidatorSet,
  Validator,
} from "../wire/generated/tendermint/types/validator.js";
import type { ConsensusConfig } from "./config.js";
import { RoundStep } from "./round-step.js";
import type { HeightVotes } from "./vote-keeper/height-votes.js";

/** A block together with its parts and BlockID (the lock, the valid block, the proposal block). */
export interface HeldBlock {
  readonly block: Block;
  readonly blockId: BlockID;
  readonly parts: PartSetState;
}

export interface ConsensusState {
  readonly config: ConsensusConfig;
  /** Our validator address; undefined on a node that does not sign. */
  readonly ownAddress: Uint8Array | undefined;
  /** False until ConsensusStarted; every other input is ignored before it. */
  readonly started: boolean;
  /** Set once a Halt was emitted: nothing is signed or decided after it. */
  readonly halted: string | undefined;

  /** The chain state after the last executed block (validators, params, app hash, last block). */
  readonly chain: ChainState;
  /** The app hash in the last block's header (differs from chain.appHash when the app changed it). */
  readonly lastBlockAppHash: Uint8Array;

  readonly height: bigint;
  readonly round: number;
  readonly step: RoundStep;
  /** When round 0 of this height may begin: the last commit time + timeout_commit. */
  readonly startTime: Timestamp;
  /** When this height entered the commit step. */
  readonly commitTime: Timestamp | undefined;
  /** Our index in the height's validator set, or -1. */
  readonly ownIndex: number;
  /**
   * The height's validator set with its proposer priorities advanced through the rounds entered
   * so far (v0.34's cs.Validators): the proposer of a round depends on that path.
   */
  readonly roundValidators: ProtoValidatorSet | undefined;
  /** The proposer of the current round. */
  readonly proposer: Validator | undefined;

  /** The proposal of the current round (only the current round's is kept, as v0.34 does). */
  readonly proposal: Proposal | undefined;
  /** The parts being collected: the proposal's, or, once a majority named another block, that one's. */
  readonly proposalParts: PartSetState | undefined;
  /** The decoded block once every part is in, with its BlockID. */
  readonly proposalBlock: HeldBlock | undefined;
  /** Whether proposalBlock passed ValidateBlock; undefined while the answer is pending. */
  readonly proposalBlockValid: boolean | undefined;

  readonly lockedRound: number;
  readonly lockedBlock: HeldBlock | undefined;
  readonly validRound: number;
  readonly validBlock: HeldBlock | undefined;

  readonly votes: HeightVotes;
  /** Precommits of the previous height (its commit round), for the next block's LastCommit. */
  readonly lastCommit: HeightVotes | undefined;
  readonly lastCommitRound: number;

  /** Round of the decision once in the commit step, else -1. */
  readonly commitRound: number;
  /** CommitBlock was emitted for this height; waiting for BlockExecuted. */
  readonly committed: boolean;
  /**
   * The seen commit CommitBlock stored with the decided block. The next height's last commit is
   * rebuilt from it, not from every precommit folded by then: a restart rebuilds it from the
   * stored seen commit, and the two must agree, or a proposal re-folded after a restart is built
   * with another LastCommit (another block) than the one signed before the crash.
   */
  readonly seenCommit: Commit | undefined;

  /** Rounds in which an upon-rule guarded by "for the first time" already fired. */
  readonly prevoteWaitRound: number; // L34
  readonly polkaBlockRound: number; // L36
  readonly precommitWaitRound: number; // L47

  /**
   * The latest height the mempool reported transactions for (create_empty_blocks = false); the
   * report may come just before BlockExecuted, so one height ahead is kept. 0 when none.
   */
  readonly txsAvailableHeight: bigint;
  /** Verified votes for the next height that came early, replayed when it starts (bounded). */
  readonly nextHeightVotes: readonly { readonly vote: Vote; readonly from: string | undefined }[];
  /** Round whose proposal block we asked to be reaped, or -1. */
  readonly reapRound: number;
  /** Round whose proposal we asked to be signed, or -1; its block is kept until the signature returns. */
  readonly signingProposalRound: number;
  readonly signingProposalBlock: HeldBlock | undefined;
}

export interface ConsensusStateOptions {
  readonly config: ConsensusConfig;
  readonly ownAddress?: Uint8Array;
}

const EMPTY_BLOCK_ID: BlockID = {
  hash: new Uint8Array(0),
  partSetHeader: { total: 0, hash: new Uint8Array(0) },
};

/** The chain state before ConsensusStarted: no height, no validators, zero params. */
const NO_CHAIN: ChainState = {
  version: { consensus: { block: 0n, app: 0n }, software: "" },
  chainId: "",
  initialHeight: 0n,
  lastBlockHeight: 0n,
  lastBlockId: EMPTY_BLOCK_ID,
  lastBlockTime: { seconds: 0n, nanos: 0 },
  nextValidators: undefined,
  validators: undefined,
  lastValidators: undefined,
  lastHeightValidatorsChanged: 0n,
  consensusParams: {
    block: { maxBytes: 0n, maxGas: 0n, timeIotaMs: 0n },
    evidence: { maxAgeNumBlocks: 0n, maxAgeDuration: { seconds: 0n, nanos: 0 }, maxBytes: 0n },
    validator: { pubKeyTypes: [] },
    version: { appVersion: 0n },
  },
  lastHeightConsensusParamsChanged: 0n,
  lastResultsHash: new Uint8Array(0),
  appHash: new Uint8Array(0),
};

/** The state before ConsensusStarted: not started, holding only the configuration. */
export function initialConsensusState(options: ConsensusStateOptions): ConsensusState {
  const zero = { seconds: 0n, nanos: 0 };
  return {
    config: options.config,
    ownAddress: options.ownAddress,
    started: false,
    halted: undefined,
    chain: NO_CHAIN,
    lastBlockAppHash: new Uint8Array(0),
    height: 0n,
    round: 0,
    step: RoundStep.NewHeight,
    startTime: zero,
    commitTime: undefined,
    ownIndex: -1,
    roundValidators: undefined,
    proposer: undefined,
    proposal: undefined,
    proposalParts: undefined,
    proposalBlock: undefined,
    proposalBlockValid: undefined,
    lockedRound: -1,
    lockedBlock: undefined,
    validRound: -1,
    validBlock: undefined,
    votes: {
      height: 0n,
      weights: { addresses: [], powers: [], totalPower: 0n },
      rounds: [],
      decisionRound: -1,
      highestTwoThirdsAnyRound: -1,
    },
    lastCommit: undefined,
    lastCommitRound: -1,
    commitRound: -1,
    committed: false,
    seenCommit: undefined,
    prevoteWaitRound: -1,
    polkaBlockRound: -1,
    precommitWaitRound: -1,
    txsAvailableHeight: 0n,
    nextHeightVotes: [],
    reapRound: -1,
    signingProposalRound: -1,
    signingProposalBlock: undefined,
  };
}

export { EMPTY_BLOCK_ID };
