// Byzantine validators. Each runs the honest reducer (so it keeps pace with the chain) but its
// outgoing messages are rewritten. A double voter signs, with its raw key and so past the
// signer's protection, a second vote for another BlockID in the same height/round/step:
//   double-*: the second version goes (at its gossip ticks) to each peer that already holds the
//     first, so the conflict is seen and reported (and must end in committed evidence) while
//     every honest validator counts the same version;
//   split-*: each peer gets one version or both, in random order, so honest validators count
//     different versions.
// A double proposer signs a second proposal for another block and sends each proposal with its
// own parts to one half of the peers. A silent validator is never started. Misbehaviour stops
// after height `until`, so evidence has heights left to be committed in.

import type { BroadcastBlockPart, BroadcastProposal, BroadcastVote } from "../../src/consensus/effect.js";
import { buildProposalBlock } from "../../src/consensus/proposal-block.js";
import {
  type BlockID,
  type Proposal,
  SignedMsgType,
  type Vote,
} from "../../src/wire/generated/tendermint/types/types.js";
import { proposalSignBytes, voteSignBytes } from "../../src/wire/sign-bytes.js";
import type { Prng } from "./prng.js";
import type { ByzantineBehaviour } from "./scenario.js";
import { SIM_CHAIN_ID } from "./sim-chain.js";
import type { PeerMessage } from "./sim-network.js";
import { type SimNode, toMessage, voteMessage } from "./sim-node.js";

const NIL: BlockID = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };

export interface Equivocation {
  readonly height: bigint;
  readonly round: number;
  readonly type: number;
}

interface Network {
  send(from: number, to: number, message: PeerMessage): void;
}

export class ByzantineValidator {
  /** Double votes actually sent (each reached at least one peer's inbox as a pair). */
  readonly equivocations: Equivocation[] = [];
  private readonly recentPairs: { a: Vote; b: Vote; split: boolean; toldPeers: Set<number> }[] = [];
  /** Height/round of our split proposal, and the peers that got the first version. */
  private split: { height: bigint; round: number; firstSide: Set<number> } | undefined;

  constructor(
    private readonly node: SimNode,
    readonly behaviours: readonly ByzantineBehaviour[],
    private readonly peers: readonly number[],
    /** The peers' validators, read to see who holds which version (the gossip's view). */
    private readonly peerNode: (index: number) => SimNode,
    private readonly network: Network,
    private readonly prng: Prng,
    private readonly until: number,
  ) {
    node.broadcastHook = (e) => this.onBroadcast(e);
  }

  get index(): number {
    return this.node.index;
  }

  private active(height: bigint): boolean {
    return height <= BigInt(this.until);
  }

  private onBroadcast(e: BroadcastProposal | BroadcastBlockPart | BroadcastVote): boolean {
    if (e.type === "BroadcastVote" && this.doubles(e.vote) && this.active(e.vote.height)) {
      this.doubleVote(e.vote);
      return true;
    }
    if (
      e.type === "BroadcastProposal" &&
      this.behaviours.includes("double-proposal") &&
      this.active(e.proposal.height)
    ) {
      return this.doubleProposal(e.proposal);
    }
    if (e.type === "BroadcastBlockPart" && this.split?.height === e.height && this.split.round === e.round) {
      for (const to of this.split.firstSide) this.network.send(this.node.index, to, toMessage(e));
      return true;
    }
    return false;
  }

  private doubles(vote: Vote): boolean {
    return this.mode(vote) !== undefined;
  }

  private mode(vote: Vote): "double" | "split" | undefined {
    const kind = vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevote" : "precommit";
    if (this.behaviours.includes(`split-${kind}`)) return "split";
    if (this.behaviours.includes(`double-${kind}`)) return "double";
    return undefined;
  }

  private doubleVote(vote: Vote): void {
    const other: BlockID =
      vote.blockId.hash.length === 0
        ? { hash: this.prng.bytes(32), partSetHeader: { total: 1, hash: this.prng.bytes(32) } }
        : NIL;
    const unsigned: Vote = { ...vote, blockId: other, signature: new Uint8Array(0) };
    const second: Vote = {
      ...unsigned,
      signature: this.node.rawSign(voteSignBytes(SIM_CHAIN_ID, unsigned)),
    };
    const split = this.mode(vote) === "split";
    if (split) {
      this.prng.shuffle(this.peers).forEach((to, k) => {
        // The first peer always gets both; the others one version or, half the time, both.
        const both = k === 0 || this.prng.chance(0.5);
        const firstVersion = this.prng.chance(0.5);
        const versions = both
          ? firstVersion
            ? [vote, second]
            : [second, vote]
          : [firstVersion ? vote : second];
        for (const v of versions) this.network.send(this.node.index, to, voteMessage(v));
      });
      this.equivocations.push({ height: vote.height, round: vote.round, type: vote.type });
    } else {
      for (const to of this.peers) this.network.send(this.node.index, to, voteMessage(vote));
    }
    this.recentPairs.push({ a: vote, b: second, split, toldPeers: new Set() });
    if (this.recentPairs.length > 4) this.recentPairs.shift();
  }

  private doubleProposal(proposal: Proposal): boolean {
    const s = this.node.state;
    const own = s.proposalBlock;
    if (own === undefined || !Buffer.from(own.blockId.hash).equals(Buffer.from(proposal.blockId.hash)))
      return false;
    const alt = buildProposalBlock({
      chain: s.chain,
      height: proposal.height,
      proposerAddress: this.node.address,
      txs: [
        new TextEncoder().encode(`double-proposal/${proposal.height}/${proposal.round}`),
        ...this.node.reapTxs(),
      ],
      evidence: [],
      lastCommit: own.block.lastCommit,
    });
    if (alt === undefined) return false;
    const unsigned: Proposal = { ...proposal, blockId: alt.blockId, signature: new Uint8Array(0) };
    const second: Proposal = {
      ...unsigned,
      signature: this.node.rawSign(proposalSignBytes(SIM_CHAIN_ID, unsigned)),
    };
    const order = this.prng.shuffle(this.peers);
    const cut = Math.ceil(order.length / 2);
    const firstSide = new Set(order.slice(0, cut));
    this.split = { height: proposal.height, round: proposal.round, firstSide };
    for (const to of order) {
      if (firstSide.has(to)) {
        this.network.send(this.node.index, to, { $case: "proposal", proposal: { proposal } });
        continue;
      }
      this.network.send(this.node.index, to, { $case: "proposal", proposal: { proposal: second } });
      for (const part of alt.parts.parts) {
        this.network.send(this.node.index, to, {
          $case: "blockPart",
          blockPart: { height: proposal.height, round: proposal.round, part: part! },
        });
      }
    }
    return true;
  }

  /**
   * double-*: the second version to each reachable peer that holds the first and has not been
   * sent it yet. split-*: both versions again to one random peer.
   */
  gossip(linkUp: (to: number) => boolean): void {
    if (this.recentPairs.length === 0) return;
    const height = this.node.state.height;
    const send = (to: number, vote: Vote) => this.network.send(this.node.index, to, voteMessage(vote));
    const randomPeer = this.prng.pick(this.peers);
    for (const pair of this.recentPairs) {
      if (pair.a.height + 1n < height) continue;
      if (pair.split) {
        send(randomPeer, pair.a);
        send(randomPeer, pair.b);
        continue;
      }
      for (const to of this.peers) {
        if (pair.toldPeers.has(to) || !linkUp(to) || !holds(this.peerNode(to), pair.a)) continue;
        pair.toldPeers.add(to);
        send(to, pair.b);
        if (pair.toldPeers.size === 1)
          this.equivocations.push({ height: pair.a.height, round: pair.a.round, type: pair.a.type });
      }
    }
  }
}

/** Whether `node`, alive and at the vote's height, counted exactly `vote` for its validator. */
function holds(node: SimNode, vote: Vote): boolean {
  const s = node.state;
  if (!node.alive || s.height !== vote.height) return false;
  const round = s.votes.rounds[vote.round];
  const tally = vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? round?.prevotes : round?.precommits;
  const held = tally?.votes[vote.validatorIndex];
  return held !== undefined && Buffer.from(held.signature).equals(Buffer.from(vote.signature));
}
