// v0.34's gossipDataRoutine, one pass for one peer: the parts of our proposal block it lacks;
// for a peer on a lower height, that height's block parts from the store; at the same height and
// round, our proposal (and its POL prevotes) when it has none. Every message sent is marked as held.
import type { ConsensusState } from "../state.js";
import { bitsToWire, hasBit } from "./bit-array.js";
import { heldBits, partsFor, roundVotes, sameHeader, validatorCount } from "./our-view.js";
import { nextDue, type Pass } from "./pass.js";
import { initProposalParts, type PeerRoundState, setHasPart, setHasProposal } from "./peer-round-state.js";

export function gossipData(prs: PeerRoundState, pass: Pass): { prs: PeerRoundState; dueMs: number } {
  const our = pass.our;
  const max = pass.config.maxSendsPerPass;
  let sent = 0;
  while (sent < max) {
    // (1) Parts of the block the peer is collecting, when it is one we hold parts of.
    if (prs.proposalHeader !== undefined && prs.proposalParts !== undefined && prs.height === our.height) {
      const held = partsFor(our, prs.proposalHeader);
      if (held !== undefined) {
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
      prs = setHasProposal(
        prs,
        proposal.height,
        proposal.round,
        proposal.blockId.partSetHeader,
        proposal.polRound,
      );
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
  return { prs, dueMs: nextDue(pass, sent, pass.config.gossipSleepMs) };
}

function missingIndex(parts: readonly (unknown | undefined)[], peer: Readonly<Uint8Array>): number {
  for (let i = 0; i < parts.length; i++) if (parts[i] !== undefined && !hasBit(peer, i)) return i;
  return -1;
}

/** The data routine reads the store for a peer on a height below ours ((2) above). */
export function dataReadsStore(our: ConsensusState, prs: PeerRoundState): boolean {
  return prs.height > 0n && prs.height < our.height;
}
