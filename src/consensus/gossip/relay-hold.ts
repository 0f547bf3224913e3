// Until when the parts of another validator's proposal wait before we pass them on to a peer still
// in Propose (gossip-data.ts relayHeld). In a full mesh the proposer sends every validator each
// part itself, and v0.34 has no message saying a part arrived, so parts passed on at once reach
// every validator from every other one too: copies whose seals and opens take the CPU the parts'
// own arrival needs. The hold ends `relayGraceMs` after our own copy of the block is complete (the
// proposer's pass to each peer left with ours, so a peer it serves has the block by then, or soon
// after, and leaves Propose: peer-round-state.ts leftProposeWithBlock), and at the latest
// `relayHoldMs` after the proposal arrived, for when our copy never completes. A peer the proposer
// serves late waits at most the grace past our own completion, not a fixed time from the proposal.
import type { ConsensusState } from "../state.js";
import type { GossipConfig } from "./state.js";

/**
 * The hold's end after our transition `before` → `after` at `nowMs`, given the end held so far
 * (`current`); undefined when nothing is held (no proposal, or the proposal is ours).
 */
export function relayHoldEnd(
  current: number | undefined,
  before: ConsensusState | undefined,
  after: ConsensusState,
  nowMs: number,
  config: GossipConfig,
): number | undefined {
  const proposal = after.proposal;
  if (proposal === undefined || weProposeOurRound(after)) return undefined;
  const sameProposal = before !== undefined && before.proposal === proposal;
  let end = sameProposal ? current : nowMs + config.relayHoldMs;
  if (end === undefined) return undefined;
  const completedNow =
    after.proposalBlock !== undefined && (!sameProposal || before.proposalBlock === undefined);
  if (completedNow) end = Math.min(end, nowMs + config.relayGraceMs);
  return end;
}

/** Whether we propose our state's round: our own block's parts go out at once. */
export function weProposeOurRound(our: ConsensusState): boolean {
  const own = our.ownAddress;
  const proposer = our.proposer?.address;
  if (own === undefined || proposer === undefined || own.length !== proposer.length) return false;
  for (let i = 0; i < own.length; i++) if (own[i] !== proposer[i]) return false;
  return true;
}
