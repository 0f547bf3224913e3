// The inputs of the consensus reducer. Each `type` string is a record type of the log (a file
// format): declared here once, never renamed. Every input carries `time`, stamped when it entered
// the log: the only clock the reducer sees. Signatures on votes and proposals were verified before
// the input was logged, so the reducer (and replay) trust them.
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../wire/generated/tendermint/state/types.js";
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type { Evidence } from "../wire/generated/tendermint/types/evidence.js";
import type { Commit, Part, Proposal, Vote } from "../wire/generated/tendermint/types/types.js";
import type { RoundStep } from "./round-step.js";

export const CONSENSUS_INPUT_TYPES = [
  "ConsensusStarted",
  "ConsensusResumed",
  "BlockExecuted",
  "ProposalReceived",
  "BlockPartReceived",
  "VoteReceived",
  "TimeoutElapsed",
  "TxsAvailable",
  "ProposalBlockReaped",
  "ProposalSigned",
  "VoteSigned",
  "SignFailed",
  "BlockValidated",
] as const;

export type ConsensusInputType = (typeof CONSENSUS_INPUT_TYPES)[number];

/** A peer's node ID (hex), for PeerMisbehaved. */
export type PeerId = string;

/**
 * The node starts (or restarts) consensus at `chainState.lastBlockHeight + 1`. `lastCommit` is the
 * stored seen commit of the last block (absent at the initial height); `lastBlockAppHash` is the
 * app hash in that block's header (empty at the initial height), which decides whether the next
 * block must be proposed even with create_empty_blocks = false.
 */
export interface ConsensusStarted {
  readonly type: "ConsensusStarted";
  readonly time: Timestamp;
  readonly chainState: ChainState;
  readonly lastCommit: Commit | undefined;
  readonly lastBlockAppHash: Uint8Array;
}

/**
 * The node restarted and replayed its log up to here (effects of the replay were not carried out):
 * the reducer issues again what must be outstanding now (the current step's timer, a pending
 * proposal, an unexecuted decision).
 */
export interface ConsensusResumed {
  readonly type: "ConsensusResumed";
  readonly time: Timestamp;
}

/** The block of `height` (from a CommitBlock effect) was saved and executed; `chainState` follows it. */
export interface BlockExecuted {
  readonly type: "BlockExecuted";
  readonly time: Timestamp;
  readonly height: bigint;
  readonly chainState: ChainState;
}

/** A proposal whose signature was verified against the proposer of its height and round. */
export interface ProposalReceived {
  readonly type: "ProposalReceived";
  readonly time: Timestamp;
  readonly proposal: Proposal;
  readonly from: PeerId;
}

export interface BlockPartReceived {
  readonly type: "BlockPartReceived";
  readonly time: Timestamp;
  readonly height: bigint;
  readonly round: number;
  readonly part: Part;
  readonly from: PeerId;
}

/** A vote whose signature was verified against the validator at its index. */
export interface VoteReceived {
  readonly type: "VoteReceived";
  readonly time: Timestamp;
  readonly vote: Vote;
  readonly from: PeerId;
}

/** A timeout scheduled by a ScheduleTimeout effect has elapsed. */
export interface TimeoutElapsed {
  readonly type: "TimeoutElapsed";
  readonly time: Timestamp;
  readonly height: bigint;
  readonly round: number;
  readonly step: RoundStep;
}

/** The mempool holds transactions for `height` (sent once per height, as v0.34's TxsAvailable). */
export interface TxsAvailable {
  readonly type: "TxsAvailable";
  readonly time: Timestamp;
  readonly height: bigint;
}

/** The answer to ReapProposalBlock: pending evidence and the reaped transactions, within the limits. */
export interface ProposalBlockReaped {
  readonly type: "ProposalBlockReaped";
  readonly time: Timestamp;
  readonly height: bigint;
  readonly round: number;
  readonly txs: readonly Uint8Array[];
  readonly evidence: readonly Evidence[];
}

/** The signer signed our proposal (the answer to SignProposal). */
export interface ProposalSigned {
  readonly type: "ProposalSigned";
  readonly time: Timestamp;
  readonly proposal: Proposal;
}

/** The signer signed our vote (the answer to SignVote). */
export interface VoteSigned {
  readonly type: "VoteSigned";
  readonly time: Timestamp;
  readonly vote: Vote;
}

/** The signer refused or failed (double-sign protection, I/O): consensus halts. */
export interface SignFailed {
  readonly type: "SignFailed";
  readonly time: Timestamp;
  readonly height: bigint;
  readonly round: number;
  readonly what: "proposal" | "prevote" | "precommit";
  readonly reason: string;
}

/** The answer to ValidateBlock: `error` says why the block is invalid; absent when it is valid. */
export interface BlockValidated {
  readonly type: "BlockValidated";
  readonly time: Timestamp;
  readonly height: bigint;
  readonly blockHash: Uint8Array;
  readonly error?: string;
}

export type ConsensusInput =
  | ConsensusStarted
  | ConsensusResumed
  | BlockExecuted
  | ProposalReceived
  | BlockPartReceived
  | VoteReceived
  | TimeoutElapsed
  | TxsAvailable
  | ProposalBlockReaped
  | ProposalSigned
  | VoteSigned
  | SignFailed
  | BlockValidated;

export type { Block };
