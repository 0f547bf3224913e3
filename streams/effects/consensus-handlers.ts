// The consensus loop's effect handlers, one table for the node (streams/node.ts) and the
// simulation (test/sim/sim-node.ts). Every decision a handler carries out is a pure function of
// src/ (block validity, the signer's rules, reaping limits, the evidence pool's rules, the timer
// semantics); a handler only interprets its effect through the ports given here, which answer
// now in a simulation on virtual time and later in the node. The simulation therefore proves the
// safety of the node's own code, not of a copy.
import type { Observable, SchedulerLike } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { ConsensusState } from "../../src/consensus/state.js";
import type { Clock } from "../sources/stamp-time.js";
import { BLOCK_EXECUTION_KINDS, type BlockExecutionDeps, blockExecutionHandler } from "./block-execution.js";
import {
  BLOCK_VALIDATION_KINDS,
  type BlockValidationDeps,
  blockValidationHandler,
} from "./block-validation.js";
import { BROADCAST_KINDS, broadcastHandler, type PeerBroadcaster } from "./broadcasts.js";
import {
  CONSENSUS_EVENT_KINDS,
  type ConsensusEventsDeps,
  consensusEventsHandler,
} from "./consensus-events.js";
import { EVIDENCE_REPORT_KINDS, type EvidenceReportDeps, evidenceReportHandler } from "./evidence.js";
import { REAPING_KINDS, type ReapingDeps, reapingHandler } from "./reaping.js";
import { SIGNING_KINDS, type SigningDeps, signingHandler } from "./signing.js";
import { TIMEOUT_KINDS, timeoutHandler } from "./timeouts.js";

/** A handler of the loop (streams/loop.ts LoopHandler), with the effect kinds it carries out. */
export type ConsensusHandler = ((
  effect$: Observable<ConsensusEffect>,
  state$: Observable<ConsensusState>,
) => Observable<ConsensusInput>) & { readonly kinds?: readonly ConsensusEffect["type"][] };

/**
 * Names the kinds `handler` carries out, so the loop hands it only those (its own filter, made from
 * the same exported constant, stays, for a caller that subscribes it to every effect). The handler
 * function is a fresh one per factory call, so naming its kinds on it changes no other table.
 */
function only(
  kinds: readonly ConsensusEffect["type"][],
  handler: (
    effect$: Observable<ConsensusEffect>,
    state$: Observable<ConsensusState>,
  ) => Observable<ConsensusInput>,
): ConsensusHandler {
  return Object.assign(handler, { kinds });
}

export interface ConsensusHandlerDeps {
  /** Timers of consensus: asyncScheduler in the node, the virtual-time scheduler in a simulation. */
  scheduler: SchedulerLike;
  /** Where a timeout already due fires (timeouts.ts); absent: on `scheduler` too. */
  dueScheduler?: SchedulerLike;
  /**
   * The clock that stamps the loop's inputs, when `scheduler` keeps the same time: NewHeight's
   * timer then ends at the state's startTime, not its duration after the effect is handled
   * (timeouts.ts). Absent: every timeout waits its duration (a simulation, whose handlers run at
   * the fold's own virtual time, so the two agree).
   */
  clock?: Clock;
  /** Absent on a node that is not a validator (it is never asked to sign). */
  signing?: SigningDeps;
  reaping: ReapingDeps;
  validation: BlockValidationDeps;
  execution: BlockExecutionDeps;
  peers: PeerBroadcaster;
  events: ConsensusEventsDeps;
  /**
   * Where ReportConflictingVotes goes. Absent in the node, whose evidence pool is a projection
   * following the loop's folds (projections/evidence-pool.ts) and so reads the effect there.
   */
  evidence?: EvidenceReportDeps;
}

export function consensusHandlers(deps: ConsensusHandlerDeps): ConsensusHandler[] {
  // Each handler's kinds are the constant its module filters with (effect-kinds.ts). PublishEvent goes to no handler: the node
  // publishes its events from the loop's folds (projections/node-events.ts), the simulation observes
  // none, so an event costs the loop one lookup and nothing more.
  return [
    only(TIMEOUT_KINDS, timeoutHandler(deps.scheduler, deps.dueScheduler, deps.clock)),
    ...(deps.signing ? [only(SIGNING_KINDS, signingHandler(deps.signing))] : []),
    only(REAPING_KINDS, reapingHandler(deps.reaping)),
    only(BLOCK_VALIDATION_KINDS, blockValidationHandler(deps.validation)),
    only(BLOCK_EXECUTION_KINDS, blockExecutionHandler(deps.execution)),
    only(BROADCAST_KINDS, broadcastHandler(deps.peers)),
    only(CONSENSUS_EVENT_KINDS, consensusEventsHandler(deps.events)),
    ...(deps.evidence ? [only(EVIDENCE_REPORT_KINDS, evidenceReportHandler(deps.evidence))] : []),
  ];
}
