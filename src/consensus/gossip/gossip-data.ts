// v0.34's gossipDataRoutine, one pass for one peer: the parts of our proposal block it lacks;
// for a peer on a lower height, that height's block parts from the store; at the same height and
// round, our proposal (and its POL prevotes) when it has none. Every message sent is marked as held.
//
// The relay rule (not v0.34's, on v0.34's messages): parts of a block we did not propose go to a
// peer only after it has shown no progress on its part set for relayAfterStallMs. The proposer sends
// every peer all its parts at once, and rxbft peers tell each other of each part they add
// (NewValidBlock, announce.ts), so a peer the proposer reaches keeps showing progress and gets no
// copies from the relays; one it does not reach (a slow or broken link, a lost part) stalls, and
// every relay then sends it what it still lacks. A peer that never hints (CometBFT v0.34) shows
// progress only through the parts it relays to us, so it gets ours once those stop.
import type { ConsensusState } from "../state.js";
import { bitsToWire, hasBit } from "./bit-array.js";
import { heldBits, isOwnTurn, partsFor, roundVotes, sameHeader, validatorCount } from "./our-view.js";
import { nextDue, type Pass } from "./pass.js";
import {
  initProposalParts,
  type PeerRoundState,
  setHasPart,
  setHasProposal,
  withPartsAt,
} from "./peer-round-state.js";

export interface DataPass {
  readonly prs: PeerRoundState;
  readonly dueMs: number;
  /** The pass kept parts back under the relay rule: it is not idle (idle-memo.ts). */
  readonly held: boolean;
}

export function gossipData(prs: PeerRoundState, pass: Pass): DataPass {
  const our = pass.our;
  const max = pass.config.maxSendsPerPass;
  const ownTurn = isOwnTurn(our);
  let sent = 0;
  let heldUntilMs: number | undefined;
  while (sent < max) {
    // (1) Parts of the block the peer is collecting, when it is one we hold parts of (another
    // validator's block only once the peer stalled on it).
    if (prs.proposalHeader !== undefined && prs.proposalParts !== undefined && prs.height === our.height) {
      const held = partsFor(our, prs.proposalHeader);
      const relayAtMs = prs.partsAtMs + pass.config.relayAfterStallMs;
      if (held !== undefined && !ownTurn && pass.nowMs < relayAtMs) {
        if (missingIndex(held.parts, prs.proposalParts) >= 0) heldUntilMs = relayAtMs;
      } else if (held !== undefined) {
        const index = missingIndex(held.parts, prs.proposalParts);
        if (index >= 0) {
          pass.send({
            $case: "blockPart",
            blockPart: { height: our.height, round: our.round, part: held.parts[index]! },
          });
          prs = setHasPart(prs, prs.height, prs.round, index);
          sent++;
          continue;
        }
      }
    }
    // (2) A peer on a height we committed: that block's parts, from the store.
    if (dataReadsStore(our, prs)) {
      const stored = pass.stored(prs.height);
      if (stored === undefined) break;
      prs = initProposalParts(prs, stored.header);
      if (prs.proposalHeader === undefined || !sameHeader(prs.proposalHeader, stored.header)) break;
      const index = missingIndex(stored.parts, prs.proposalParts!);
      if (index < 0) break;
      pass.send({
        $case: "blockPart",
        blockPart: { height: prs.height, round: prs.round, part: stored.parts[index]! },
      });
      prs = setHasPart(prs, prs.height, prs.round, index);
      sent++;
      continue;
    }
    // (3) Elsewhere than our height and round: nothing more for it.
    if (prs.height !== our.height || prs.round !== our.round) break;
    // (4) Our proposal, then its POL prevotes.
    const proposal = our.proposal;
    if (proposal !== undefined && !prs.proposal && proposal.round === our.round) {
      pass.send({ $case: "proposal", proposal: { proposal } });
      const before = prs.proposalParts;
      prs = setHasProposal(
        prs,
        proposal.height,
        proposal.round,
        proposal.blockId.partSetHeader,
        proposal.polRound,
      );
      // A part set the peer learns from us starts the relay rule's clock: the proposer's parts
      // are likely on their way to it too.
      if (prs.proposalParts !== before) prs = withPartsAt(prs, pass.nowMs);
      sent++;
      if (proposal.polRound >= 0) {
        const pol = roundVotes(our.votes, proposal.polRound)?.prevotes;
        if (pol !== undefined) {
          pass.send({
            $case: "proposalPol",
            proposalPol: {
              height: our.height,
              proposalPolRound: proposal.polRound,
              proposalPol: bitsToWire(heldBits(pol, validatorCount(our))),
            },
          });
          sent++;
        }
      }
      continue;
    }
    break;
  }
  const dueMs = nextDue(pass, sent, pass.config.gossipSleepMs);
  if (heldUntilMs === undefined) return { prs, dueMs, held: false };
  return { prs, dueMs: Math.min(dueMs, heldUntilMs), held: true };
}

function missingIndex(parts: readonly (unknown | undefined)[], peer: Readonly<Uint8Array>): number {
  for (let i = 0; i < parts.length; i++) if (parts[i] !== undefined && !hasBit(peer, i)) return i;
  return -1;
}

/** The data routine reads the store for a peer on a height below ours ((2) above). */
export function dataReadsStore(our: ConsensusState, prs: PeerRoundState): boolean {
  return prs.height > 0n && prs.height < our.height;
}
