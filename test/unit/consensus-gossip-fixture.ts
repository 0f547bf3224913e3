// A consensus state to drive the gossip reducer with: four validators of power 1 at a height, with
// the votes, proposal and parts a test gives (unsigned: the gossip never verifies, consensus does).
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { bitsToWire } from "../../src/consensus/gossip/bit-array.js";
import type {
  ConsensusMessage,
  GossipEffect,
  GossipInput,
  GossipState,
} from "../../src/consensus/gossip/index.js";
import { initialGossipState } from "../../src/consensus/gossip/index.js";
import { gossipReducer } from "../../src/consensus/gossip/reducer.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import {
  addVote,
  emptyHeightVotes,
  type HeightVotes,
  weightsOf,
} from "../../src/consensus/vote-keeper/height-votes.js";
import { addPart, emptyPartSet, type PartSetState, splitIntoParts } from "../../src/types/part-set.js";
import {
  type BlockID,
  type Proposal,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";

export const N = 4;
export const ADDRESSES = Array.from({ length: N }, (_, i) => new Uint8Array(20).fill(i + 1));
export const WEIGHTS = weightsOf(ADDRESSES.map((address) => ({ address, votingPower: 1n })));
export const NIL: BlockID = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };

/** A three-part block (parts of 65536 bytes each but the last). */
export const SPLIT = splitIntoParts(new Uint8Array(65536 * 2 + 10).fill(7));
export const BLOCK_ID: BlockID = { hash: new Uint8Array(32).fill(9), partSetHeader: SPLIT.header };

export function vote(
  height: bigint,
  round: number,
  type: SignedMsgType,
  index: number,
  blockId = BLOCK_ID,
): Vote {
  return {
    type,
    height,
    round,
    blockId,
    timestamp: { seconds: 1n, nanos: 0 },
    validatorAddress: ADDRESSES[index]!,
    validatorIndex: index,
    signature: new Uint8Array(64).fill(index),
  };
}

export const prevote = (h: bigint, r: number, i: number, b = BLOCK_ID) =>
  vote(h, r, SignedMsgType.SIGNED_MSG_TYPE_PREVOTE, i, b);
export const precommit = (h: bigint, r: number, i: number, b = BLOCK_ID) =>
  vote(h, r, SignedMsgType.SIGNED_MSG_TYPE_PRECOMMIT, i, b);

export function votesOf(height: bigint, votes: readonly Vote[], currentRound = 0): HeightVotes {
  let out = emptyHeightVotes(height, WEIGHTS);
  for (const v of votes) {
    const added = addVote(out, v, currentRound);
    if (added.kind === "added") out = added.votes;
  }
  return out;
}

export function partsWith(indices: readonly number[]): PartSetState {
  let set = emptyPartSet(SPLIT.header);
  for (const i of indices) set = addPart(set, SPLIT.parts[i]!);
  return set;
}

export function proposalAt(height: bigint, round: number, polRound = -1): Proposal {
  return {
    type: SignedMsgType.SIGNED_MSG_TYPE_PROPOSAL,
    height,
    round,
    polRound,
    blockId: BLOCK_ID,
    timestamp: { seconds: 1n, nanos: 0 },
    signature: new Uint8Array(64).fill(1),
  };
}

export const START_MS = 1_000_000;
/** The instant the reducer tests act at, and the one peer they talk to. */
export const T = START_MS + 5000;
export const PEER = "aa".repeat(20);

/** A peer's NewRoundStep announcement (its start time unused by the gossip). */
/** A NewValidBlock of height 5, round 0 for SPLIT's part set: the part bits a peer says it holds. */
export const newValidBlock = (bits: number[], isCommit = false): ConsensusMessage => ({
  $case: "newValidBlock",
  newValidBlock: {
    height: 5n,
    round: 0,
    blockPartSetHeader: SPLIT.header,
    blockParts: bitsToWire(Uint8Array.from(bits)),
    isCommit,
  },
});

export const nrs = (height: bigint, round: number, step: number, lastCommitRound = 0): ConsensusMessage => ({
  $case: "newRoundStep",
  newRoundStep: { height, round, step, secondsSinceStartTime: 0n, lastCommitRound },
});

export function ourState(fields: Partial<ConsensusState> & { height: bigint }): ConsensusState {
  const base = initialConsensusState({ config: DEFAULT_CONSENSUS_CONFIG });
  return {
    ...base,
    started: true,
    chain: { ...base.chain, initialHeight: 1n, lastBlockHeight: fields.height - 1n },
    round: 0,
    step: RoundStep.Propose,
    startTime: { seconds: BigInt(START_MS / 1000), nanos: 0 },
    votes: emptyHeightVotes(fields.height, WEIGHTS),
    lastCommitRound: fields.height > 1n ? 0 : -1,
    ...fields,
  };
}

/** The fields that make us (validator 0) the proposer of our round: our parts go out at once. */
export const OUR_TURN: Partial<ConsensusState> = {
  ownAddress: ADDRESSES[0]!,
  ownIndex: 0,
  proposer: { address: ADDRESSES[0]!, pubKey: { sum: undefined }, votingPower: 1n, proposerPriority: 0n },
};

/** Another validator (3) proposes our round: its parts reach a peer from us under the relay rule. */
export const THEIR_TURN: Partial<ConsensusState> = {
  ownAddress: ADDRESSES[0]!,
  ownIndex: 0,
  proposer: { address: ADDRESSES[3]!, pubKey: { sum: undefined }, votingPower: 1n, proposerPriority: 0n },
};

/** Folds inputs, collecting every effect. */
export class Driver {
  state: GossipState;
  constructor(state: GossipState = initialGossipState()) {
    this.state = state;
  }
  feed(input: GossipInput): GossipEffect[] {
    const t = gossipReducer(this.state, input);
    this.state = t.state;
    return [...t.effects];
  }
}

/**
 * Our store's answer for SPLIT's block at `height` (round 0, a commit of three signatures), as the
 * catch-up path feeds it back to the reducer.
 */
export const storedSplitBlockLoaded = (height: bigint, nowMs: number): GossipInput => ({
  type: "StoredBlockLoaded",
  nowMs,
  height,
  header: SPLIT.header,
  parts: SPLIT.parts,
  commit: {
    height,
    round: 0,
    blockId: BLOCK_ID,
    signatures: [0, 1, 2].map((i) => ({
      blockIdFlag: 2,
      validatorAddress: new Uint8Array(20).fill(i + 1),
      timestamp: { seconds: 1n, nanos: 0 },
      signature: new Uint8Array(64).fill(i),
    })),
  },
});

/** `message` received from PEER at `nowMs`; the effects of its fold. */
export const from = (d: Driver, message: ConsensusMessage, nowMs = T) =>
  d.feed({ type: "GossipMessageReceived", nowMs, peerId: PEER, message });

export const sends = (effects: readonly GossipEffect[], peerId?: string) =>
  effects.flatMap((e) =>
    e.type === "SendToPeer" && (peerId === undefined || e.peerId === peerId) ? [e.message] : [],
  );
export const broadcasts = (effects: readonly GossipEffect[]) =>
  effects.flatMap((e) => (e.type === "BroadcastToPeers" ? [e.message] : []));
export const cases = (messages: readonly { $case: string }[]) => messages.map((m) => m.$case);
