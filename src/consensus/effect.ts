// The effects of the consensus reducer: commands to the outside, carried out by handlers in
// streams/effects/ whose answers come back as inputs (SignVote → VoteSigned, ReapProposalBlock →
// ProposalBlockReaped, ValidateBlock → BlockValidated, CommitBlock → BlockExecuted, ScheduleTimeout
// → TimeoutElapsed).
import type { Block } from "../wire/generated/tendermint/types/block.js";
import type {
  BlockID,
  Commit,
  Part,
  PartSetHeader,
  Proposal,
  Vote,
} from "../wire/generated/tendermint/types/types.js";
import type { PeerId } from "./input.js";
import type { RoundStep } from "./round-step.js";

/**
 * Fire TimeoutElapsed {height, round, step} after `durationMs`. A newer timeout replaces an older
 * one (switchMap), as Tendermint's ticker keeps only the latest.
 */
export interface ScheduleTimeout {
  readonly type: "ScheduleTimeout";
  readonly height: bigint;
  readonly round: number;
  readonly step: RoundStep;
  readonly durationMs: number;
}

/**
 * Collect the proposal's contents: pending evidence up to `maxEvidenceBytes`, then transactions
 * up to maxDataBytes(maxBytes, evidence bytes, validatorCount) (src/types/block-limits.ts) and
 * `maxGas` (-1: no limit). Answered by ProposalBlockReaped.
 */
export interface ReapProposalBlock {
  readonly type: "ReapProposalBlock";
  readonly height: bigint;
  readonly round: number;
  readonly maxBytes: bigint;
  readonly maxGas: bigint;
  readonly maxEvidenceBytes: bigint;
  readonly validatorCount: number;
}

/** Sign our proposal (the signer fills `signature`); answered by ProposalSigned or SignFailed. */
export interface SignProposal {
  readonly type: "SignProposal";
  readonly proposal: Proposal;
}

/** Sign our vote; answered by VoteSigned or SignFailed. */
export interface SignVote {
  readonly type: "SignVote";
  readonly vote: Vote;
}

export interface BroadcastProposal {
  readonly type: "BroadcastProposal";
  readonly proposal: Proposal;
}

export interface BroadcastBlockPart {
  readonly type: "BroadcastBlockPart";
  readonly height: bigint;
  readonly round: number;
  readonly part: Part;
}

export interface BroadcastVote {
  readonly type: "BroadcastVote";
  readonly vote: Vote;
}

/**
 * Check a complete proposal block against the chain state (header rules, LastCommit signatures,
 * evidence): answered by BlockValidated. Our own blocks and blocks already validated are not sent.
 */
export interface ValidateBlock {
  readonly type: "ValidateBlock";
  readonly height: bigint;
  readonly round: number;
  readonly blockId: BlockID;
  readonly block: Block;
}

/**
 * The decision: save the block, its parts and the seen commit, then execute it against the app;
 * answered by BlockExecuted with the next chain state.
 */
export interface CommitBlock {
  readonly type: "CommitBlock";
  readonly height: bigint;
  readonly round: number;
  readonly blockId: BlockID;
  readonly block: Block;
  readonly partSetHeader: PartSetHeader;
  readonly parts: readonly Part[];
  readonly seenCommit: Commit;
}

/**
 * One validator signed two different votes for the same height, round and type. The evidence pool
 * turns them into DuplicateVoteEvidence (duplicateVoteEvidence() in evidence.ts) once the block
 * time of that height is known, and proposes it in a later block.
 */
export interface ReportConflictingVotes {
  readonly type: "ReportConflictingVotes";
  readonly voteA: Vote;
  readonly voteB: Vote;
}

/** A Tendermint event for the event bus (names and data as in reference §1.5). */
export interface PublishEvent {
  readonly type: "PublishEvent";
  readonly name: ConsensusEventName;
  readonly data: ConsensusEventData;
}

/** A peer sent data that cannot be right (a part with a bad proof, a vote from outside the set). */
export interface PeerMisbehaved {
  readonly type: "PeerMisbehaved";
  readonly peer: PeerId;
  readonly reason: string;
}

/** One of our own invariants broke: stop signing, flush the log, report `reason`. */
export interface Halt {
  readonly type: "Halt";
  readonly reason: string;
}

export type ConsensusEventName =
  | "NewRound"
  | "NewRoundStep"
  | "CompleteProposal"
  | "Polka"
  | "Lock"
  | "Unlock"
  | "Relock"
  | "ValidBlock"
  | "Vote"
  | "TimeoutPropose"
  | "TimeoutWait";

export interface RoundStateEventData {
  readonly kind: "RoundState";
  readonly height: bigint;
  readonly round: number;
  /** "RoundStepPropose" and so on. */
  readonly step: string;
}

export type ConsensusEventData =
  | RoundStateEventData
  | (Omit<RoundStateEventData, "kind"> & {
      readonly kind: "NewRound";
      readonly proposer: { readonly address: Uint8Array; readonly index: number };
    })
  | (Omit<RoundStateEventData, "kind"> & { readonly kind: "CompleteProposal"; readonly blockId: BlockID })
  | { readonly kind: "Vote"; readonly vote: Vote };

export type ConsensusEffect =
  | ScheduleTimeout
  | ReapProposalBlock
  | SignProposal
  | SignVote
  | BroadcastProposal
  | BroadcastBlockPart
  | BroadcastVote
  | ValidateBlock
  | CommitBlock
  | ReportConflictingVotes
  | PublishEvent
  | PeerMisbehaved
  | Halt;

export type ConsensusEffectType = ConsensusEffect["type"];
