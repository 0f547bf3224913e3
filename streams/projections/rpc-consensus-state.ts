// consensus_state and dump_consensus_state: the latest consensus state as v0.34's round state
// (height/round/step, start time, proposal/locked/valid block hashes, each round's votes as
// Go's vote strings with their bit arrays, the proposer).
import type { ConsensusState } from "../../src/consensus/state.js";
import type { HeightVotes } from "../../src/consensus/vote-keeper/height-votes.js";
import {
  type ConsensusStateResult,
  type DumpConsensusStateResult,
  type RoundVotesView,
  voteBitArrayString,
} from "../../src/rpc/json/index.js";
import type { Vote } from "../../src/wire/generated/tendermint/types/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";
import type { NodeHandle } from "../node-handle.js";

const EMPTY = new Uint8Array(0);

function tallyView(votes: readonly (Vote | undefined)[] | undefined, hv: HeightVotes) {
  const n = hv.weights.addresses.length;
  const list = votes
    ? Array.from({ length: n }, (_, i) => votes[i])
    : new Array<Vote | undefined>(n).fill(undefined);
  return { list, bits: voteBitArrayString(list, hv.weights.powers, hv.weights.totalPower) };
}

function roundView(hv: HeightVotes, round: number): RoundVotesView {
  const r = hv.rounds[round];
  const prevotes = tallyView(r?.prevotes.votes, hv);
  const precommits = tallyView(r?.precommits.votes, hv);
  return {
    round,
    prevotes: prevotes.list,
    prevotesBitArray: prevotes.bits,
    precommits: precommits.list,
    precommitsBitArray: precommits.bits,
  };
}

function roundsOf(state: ConsensusState): RoundVotesView[] {
  const last = Math.max(state.round, state.votes.rounds.length - 1);
  const views: RoundVotesView[] = [];
  for (let round = 0; round <= last; round++) views.push(roundView(state.votes, round));
  return views;
}

function proposerOf(state: ConsensusState): { address: Uint8Array; index: number } {
  // Before the round's proposer is chosen (the new-height step) the set's proposer is the one.
  const proposer = state.proposer ?? state.chain?.validators?.proposer;
  if (proposer === undefined) return { address: EMPTY, index: -1 };
  const validators = state.chain?.validators?.validators ?? [];
  const index = validators.findIndex((v) => Buffer.from(v.address).equals(Buffer.from(proposer.address)));
  return { address: proposer.address, index };
}

export function consensusStateOf(node: NodeHandle): ConsensusStateResult {
  const state = node.latestConsensusState();
  return {
    roundState: {
      height: state.height,
      round: state.round,
      step: state.step,
      startTime: state.startTime,
      proposalBlockHash: state.proposalBlock?.blockId.hash ?? EMPTY,
      lockedBlockHash: state.lockedBlock?.blockId.hash ?? EMPTY,
      validBlockHash: state.validBlock?.blockId.hash ?? EMPTY,
      heightVoteSet: roundsOf(state),
      proposer: proposerOf(state),
    },
  };
}

function setOf(set: { validators: Validator[]; proposer: Validator | undefined } | undefined) {
  return { validators: set?.validators ?? [], proposer: set?.proposer };
}

export function dumpConsensusStateOf(node: NodeHandle): DumpConsensusStateResult {
  const state = node.latestConsensusState();
  const lastCommit =
    state.lastCommit !== undefined && state.lastCommitRound >= 0
      ? roundView(state.lastCommit, state.lastCommitRound)
      : undefined;
  return {
    roundState: {
      height: state.height,
      round: state.round,
      step: state.step,
      startTime: state.startTime,
      commitTime: state.commitTime,
      validators: setOf(state.chain?.validators),
      proposal: state.proposal,
      proposalBlock: state.proposalBlock?.block,
      lockedRound: state.lockedRound,
      lockedBlock: state.lockedBlock?.block,
      validRound: state.validRound,
      validBlock: state.validBlock?.block,
      votes: roundsOf(state),
      commitRound: state.commitRound,
      lastCommit,
      lastValidators: setOf(state.chain?.lastValidators),
      triggeredTimeoutPrecommit: state.precommitWaitRound === state.round,
    },
    // No p2p layer yet: no peers to show.
    peers: [],
  };
}
