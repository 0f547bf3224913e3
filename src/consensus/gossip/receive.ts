// A message a peer sent, applied to what we believe it holds (v0.34's Receive): its round steps,
// valid block, POL, HasVote and VoteSetBits; the proposal, parts and votes it sent us (it holds
// them). A VoteSetMaj23 is answered with our VoteSetBits for that BlockID; a peer claiming two
// different +2/3 BlockIDs for one vote set, or starting a height with an impossible last commit
// round, is reported. The proposal, parts and votes themselves go to consensus elsewhere (through
// the verification step), not through here.
import { MAX_BLOCK_PARTS } from "../../types/part-set.js";
import { SignedMsgType } from "../../wire/generated/tendermint/types/types.js";
import type { ConsensusState } from "../state.js";
import { blockKeyOf } from "../vote-keeper/block-key.js";
import { bitsFromWire, bitsToWire } from "./bit-array.js";
import type { GossipEffect } from "./effect.js";
import type { ConsensusMessage } from "./message.js";
import { bitsForBlock, roundVotes, validatorCount } from "./our-view.js";
import {
  applyNewRoundStep,
  applyNewValidBlock,
  applyProposalPol,
  ensureVoteBits,
  type PeerRoundState,
  setHasPart,
  setHasProposal,
  setHasVote,
  setVoteBits,
  voteBits,
} from "./peer-round-state.js";
import { MAX_MAJ23_CLAIMS, type PeerGossip, peerGossip } from "./state.js";
import {
  bitsClearedWakes,
  newRoundStepWakes,
  newValidBlockWakes,
  proposalWakes,
  WAKE_NONE,
  type Wake,
} from "./wake.js";

/** Up to this many votes in a bit array from a peer (v0.34's MaxVotesCount). */
const MAX_VOTES = 10000;

/** The peer's vote bit arrays for our height (and our last commit), sized by our validator sets. */
function withOurBits(prs: PeerRoundState, our: ConsensusState | undefined): PeerRoundState {
  if (!our?.started) return prs;
  let next = ensureVoteBits(prs, our.height, validatorCount(our));
  if (our.lastCommit !== undefined)
    next = ensureVoteBits(next, our.height - 1n, our.lastCommit.weights.addresses.length);
  return next;
}

export interface Received {
  readonly peer: PeerGossip;
  readonly effects: readonly GossipEffect[];
  /** The routines (wake.ts) that may now have something for the peer: run them now. */
  readonly wake: Wake;
}

const NO_EFFECTS: readonly GossipEffect[] = [];

// (Module functions, not closures made per message: receive runs for every message of every
// peer, and the closures were a measurable share of the simulation.)

/** The peer with its round state `next` (the same object when unchanged). */
function updated(peer: PeerGossip, next: PeerRoundState, wake: Wake): Received {
  return {
    peer:
      next === peer.prs
        ? peer
        : peerGossip(
            next,
            peer.dataDueMs,
            peer.votesDueMs,
            peer.maj23DueMs,
            peer.maj23Claims,
            peer.dataIdle,
            peer.votesIdle,
          ),
    effects: NO_EFFECTS,
    wake,
  };
}

function reported(peerId: string, peer: PeerGossip, reason: string): Received {
  return { peer, effects: [{ type: "ReportPeer", peerId, reason }], wake: WAKE_NONE };
}

export function receive(
  peerId: string,
  peer: PeerGossip,
  m: ConsensusMessage,
  our: ConsensusState | undefined,
  nowMs: number,
): Received {
  const prs = peer.prs;
  switch (m.$case) {
    case "newRoundStep": {
      const s = m.newRoundStep;
      if (our?.started) {
        const h0 = our.chain.initialHeight;
        const where = `consensus channel 0x20: NewRoundStep height ${s.height}`;
        if (s.height < h0)
          return reported(peerId, peer, `${where} is below the chain's initial height ${h0}`);
        if (s.height === h0 && s.lastCommitRound !== -1)
          return reported(
            peerId,
            peer,
            `${where} is the initial height but last_commit_round is ${s.lastCommitRound}, not -1`,
          );
        if (s.height > h0 && s.lastCommitRound < 0)
          return reported(
            peerId,
            peer,
            `${where} is above the initial height but last_commit_round is ${s.lastCommitRound}`,
          );
      }
      const next = applyNewRoundStep(prs, s, nowMs);
      return updated(peer, next, newRoundStepWakes(prs, next));
    }
    case "newValidBlock": {
      const b = m.newValidBlock;
      const bits = b.blockParts === undefined ? "missing" : bitsFromWire(b.blockParts, MAX_BLOCK_PARTS);
      if (typeof bits === "string")
        return reported(peerId, peer, `consensus channel 0x20: NewValidBlock block_parts ${bits}`);
      const next = applyNewValidBlock(prs, b.height, b.round, b.blockPartSetHeader, bits, b.isCommit);
      return updated(peer, next, newValidBlockWakes(prs, next));
    }
    case "proposalPol": {
      const p = m.proposalPol;
      const bits = bitsFromWire(p.proposalPol, MAX_VOTES);
      if (typeof bits === "string")
        return reported(peerId, peer, `consensus channel 0x21: ProposalPOL ${bits}`);
      return updated(peer, applyProposalPol(prs, p.height, p.proposalPolRound, bits), WAKE_NONE);
    }
    case "hasVote": {
      const v = m.hasVote;
      if (prs.height !== v.height) return updated(peer, prs, WAKE_NONE);
      return updated(peer, setHasVote(withOurBits(prs, our), v.height, v.round, v.type, v.index), WAKE_NONE);
    }
    case "proposal": {
      const p = m.proposal.proposal;
      const next = setHasProposal(prs, p.height, p.round, p.blockId.partSetHeader, p.polRound);
      return updated(peer, next, proposalWakes(prs, next));
    }
    case "blockPart": {
      const b = m.blockPart;
      return updated(peer, setHasPart(prs, b.height, b.round, b.part.index), WAKE_NONE);
    }
    case "vote": {
      const vote = m.vote.vote;
      if (vote === undefined) return updated(peer, prs, WAKE_NONE);
      const next = withOurBits(prs, our);
      return updated(
        peer,
        setHasVote(next, vote.height, vote.round, vote.type, vote.validatorIndex),
        WAKE_NONE,
      );
    }
    case "voteSetMaj23": {
      const q = m.voteSetMaj23;
      if (our === undefined || !our.started || our.height !== q.height) return updated(peer, prs, WAKE_NONE);
      const key = `${q.height}/${q.round}/${q.type}`;
      const claimed = blockKeyOf(q.blockId);
      const earlier = peer.maj23Claims.get(key);
      if (earlier !== undefined && earlier !== claimed)
        return reported(
          peerId,
          peer,
          `consensus channel 0x20: VoteSetMaj23 claims +2/3 for two different blocks at height ${q.height} round ${q.round} type ${q.type}`,
        );
      let claims = peer.maj23Claims;
      if (earlier === undefined && claims.size < MAX_MAJ23_CLAIMS) {
        const copy = new Map(claims);
        copy.set(key, claimed);
        claims = copy;
      }
      const votes = roundVotes(our.votes, q.round);
      const tally = q.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? votes?.prevotes : votes?.precommits;
      const ours = bitsForBlock(tally, q.blockId, validatorCount(our));
      return {
        peer:
          claims === peer.maj23Claims
            ? peer
            : peerGossip(
                peer.prs,
                peer.dataDueMs,
                peer.votesDueMs,
                peer.maj23DueMs,
                claims,
                peer.dataIdle,
                peer.votesIdle,
              ),
        effects: [
          {
            type: "SendToPeer",
            peerId,
            message: {
              $case: "voteSetBits",
              voteSetBits: {
                height: q.height,
                round: q.round,
                type: q.type,
                blockId: q.blockId,
                votes: bitsToWire(ours),
              },
            },
          },
        ],
        wake: WAKE_NONE,
      };
    }
    case "voteSetBits": {
      const b = m.voteSetBits;
      const theirs = bitsFromWire(b.votes, MAX_VOTES);
      if (typeof theirs === "string")
        return reported(peerId, peer, `consensus channel 0x23: VoteSetBits ${theirs}`);
      const held = voteBits(prs, b.height, b.round, b.type);
      if (held === undefined) return updated(peer, prs, WAKE_NONE);
      // At our height: what it holds for that BlockID is exactly what it says; other bits stay.
      let update: Uint8Array = Uint8Array.from(theirs);
      if (our?.started && our.height === b.height) {
        const votes = roundVotes(our.votes, b.round);
        const tally = b.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? votes?.prevotes : votes?.precommits;
        const ours = bitsForBlock(tally, b.blockId, held.length);
        update = new Uint8Array(held.length);
        for (let i = 0; i < held.length; i++)
          update[i] = (held[i] === 1 && ours[i] !== 1) || theirs[i] === 1 ? 1 : 0;
      }
      const next = setVoteBits(prs, b.height, b.round, b.type, update);
      return updated(peer, next, bitsClearedWakes(held, voteBits(next, b.height, b.round, b.type)));
    }
  }
}
