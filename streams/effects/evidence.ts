// ReportConflictingVotes → the evidence pool. The pool's state is held by EvidencePoolHolder (the
// rules are pure functions of src/evidence); after each block the pool turns
// buffered conflicts into evidence and drops what the block committed or what expired.
import { EMPTY, filter, mergeMap, type Observable } from "rxjs";
import type { ConsensusEffect, ReportConflictingVotes } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import {
  addConflictingVotes,
  addVerifiedEvidence,
  checkEvidence,
  EMPTY_EVIDENCE_POOL,
  type EvidenceHistory,
  type EvidencePoolState,
  EvidenceRejectedError,
  type SignatureVerifier,
  updateEvidencePool,
} from "../../src/evidence/index.js";
import type { Logger } from "../../src/logger/index.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";

/** Where conflicting votes go (the node's and the simulation's EvidencePoolHolder). */
export interface EvidenceReportDeps {
  report(e: ReportConflictingVotes): void;
}

export function evidenceReportHandler(deps: EvidenceReportDeps) {
  return function evidenceReports(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      filter((e): e is ReportConflictingVotes => e.type === "ReportConflictingVotes"),
      mergeMap((e) => {
        deps.report(e);
        return EMPTY;
      }),
    );
  };
}

export class EvidencePoolHolder implements EvidenceReportDeps {
  private pool: EvidencePoolState = EMPTY_EVIDENCE_POOL;
  constructor(
    private readonly history: EvidenceHistory,
    private readonly logger: Logger,
  ) {}

  state(): EvidencePoolState {
    return this.pool;
  }

  report(e: ReportConflictingVotes): void {
    this.pool = addConflictingVotes(this.pool, e.voteA, e.voteB);
    this.logger.info("conflicting votes reported", {
      height: e.voteA.height,
      round: e.voteA.round,
      validator: Buffer.from(e.voteA.validatorAddress).toString("hex").toUpperCase(),
    });
  }

  /**
   * Evidence from outside (broadcast_evidence; later peers): checked exactly as evidence in a
   * proposed block is, then pending until a proposer includes it. Evidence already pending is
   * accepted again without change; committed, expired, unverifiable or forged evidence is refused.
   */
  add(evidence: Evidence, chain: ChainState, verify: SignatureVerifier): void {
    const check = checkEvidence(this.pool, evidence, chain, this.history, verify);
    if (check.kind !== "valid") throw new EvidenceRejectedError(check.reason);
    if (check.alreadyPending) return;
    this.pool = addVerifiedEvidence(this.pool, evidence);
    this.logger.info("evidence added to the pool", { key: check.key });
  }

  afterBlock(chain: ChainState, block: Block): void {
    this.pool = updateEvidencePool(this.pool, chain, block.evidence?.evidence ?? [], this.history);
  }
}
