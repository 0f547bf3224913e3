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
import { type BlockExecutionDeps, blockExecutionHandler } from "./block-execution.js";
import { type BlockValidationDeps, blockValidationHandler } from "./block-validation.js";
import { broadcastHandler, type PeerBroadcaster } from "./broadcasts.js";
import { type ConsensusEventsDeps, consensusEventsHandler } from "./consensus-events.js";
import { type EvidenceReportDeps, evidenceReportHandler } from "./evidence.js";
import { type ReapingDeps, reapingHandler } from "./reaping.js";
import { type SigningDeps, signingHandler } from "./signing.js";
import { timeoutHandler } from "./timeouts.js";

export type ConsensusHandler = (
  effect$: Observable<ConsensusEffect>,
  state$: Observable<ConsensusState>,
) => Observable<ConsensusInput>;

export interface ConsensusHandlerDeps {
  /** Timers of consensus: asyncScheduler in the node, the virtual-time scheduler in a simulation. */
  scheduler: SchedulerLike;
  /** Where a timeout already due fires (timeouts.ts); absent: on `scheduler` too. */
  dueScheduler?: SchedulerLike;
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
  return [
    timeoutHandler(deps.scheduler, deps.dueScheduler),
    ...(deps.signing ? [signingHandler(deps.signing)] : []),
    reapingHandler(deps.reaping),
    blockValidationHandler(deps.validation),
    blockExecutionHandler(deps.execution),
    broadcastHandler(deps.peers),
    consensusEventsHandler(deps.events),
    ...(deps.evidence ? [evidenceReportHandler(deps.evidence)] : []),
  ];
}
