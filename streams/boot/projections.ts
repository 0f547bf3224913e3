// The node's read models over the consensus loop: the chain state and the recent-block cache
// (both following BlockExecuted), the evidence pool (following ReportConflictingVotes, CommitBlock
// and BlockExecuted) and the event bus (each fold's events: projections/node-events.ts). Handlers and the RPC read them; only the loop's folds
// change them, so no node state lives outside the log and its projections.
import type { Observable, Subscription } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { Logger } from "../../src/logger/index.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import { ChainStateProjection } from "../projections/chain-state.js";
import { EventBus } from "../projections/event-bus.js";
import { EvidencePoolProjection, type FoldedStep } from "../projections/evidence-pool.js";
import { ExecutedBlocks, publishFoldEvents } from "../projections/node-events.js";
import { RecentBlocks } from "../projections/recent-blocks.js";

/** Heights of block times and validator sets kept in memory for evidence checks. */
export const RECENT_BLOCKS_KEPT = 1000n;

export interface NodeProjections {
  readonly recent: RecentBlocks;
  readonly chain: ChainStateProjection;
  readonly evidence: EvidencePoolProjection;
  readonly events: EventBus;
  /** Block execution's results, taken by the fold of its BlockExecuted for the block events. */
  readonly executed: ExecutedBlocks;
  /**
   * Subscribes the projections to the loop's folds. Call before the loop starts, so each fold
   * reaches them before its effects reach the handlers (which read them).
   */
  follow(transition$: Observable<FoldedStep>, resumed: readonly ConsensusEffect[]): Subscription;
}

/**
 * `opened`: the recent-block cache and the evidence pool the node opened from its evidence store
 * (boot/evidence-pool.ts); without it (tools, tests) both start empty.
 */
export function createNodeProjections(
  handshaken: ChainState,
  logger: Logger,
  opened?: { recent: RecentBlocks; evidence: EvidencePoolProjection },
): NodeProjections {
  const recent = opened?.recent ?? new RecentBlocks(RECENT_BLOCKS_KEPT);
  const chain = new ChainStateProjection(handshaken, recent);
  const evidence = opened?.evidence ?? new EvidencePoolProjection(recent, logger);
  const events = new EventBus();
  const executed = new ExecutedBlocks();
  return {
    recent,
    chain,
    evidence,
    events,
    executed,
    follow(transition$, resumed) {
      const following = chain.follow(transition$);
      following.add(evidence.follow(transition$, resumed));
      following.add(transition$.subscribe((step) => publishFoldEvents(events, step, executed)));
      return following;
    },
  };
}
