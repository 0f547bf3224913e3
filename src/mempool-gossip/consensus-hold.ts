// When our mempool gossip waits for consensus (beyond v0.34, a local send policy: the messages and
// the peers' view of them are v0.34's). On a network whose nodes share a few cores, every tx a node
// sends costs each receiver a decrypt, a decode, a hash and a fold; while round 0 of a height is
// being decided, that work stands between the proposal, its parts and the votes and the CPU they
// need. So from our Propose step to our Commit in round 0, a peer's next group of txs waits (at
// most MAX_GOSSIP_HOLD_MS), and goes once the block is decided, in the ~timeout_commit before the
// next height starts. Txs still enter the mempool as they come (RPC and peers); only their relay
// waits. A later round is not held: a height that needs one is already slow, and its txs must not
// wait on it.

import { RoundStep } from "../consensus/round-step.js";
import type { ConsensusState } from "../consensus/state.js";

/** The longest a hold lasts from its start, whatever consensus does (a proposer that is down). */
export const MAX_GOSSIP_HOLD_MS = 300;

/** Whether our consensus state is deciding round 0 of a height (Propose to PrecommitWait). */
export function holdsMempoolGossip(state: ConsensusState): boolean {
  return (
    state.started &&
    state.round === 0 &&
    state.step >= RoundStep.Propose &&
    state.step <= RoundStep.PrecommitWait
  );
}
