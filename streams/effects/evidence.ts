// ReportConflictingVotes → the evidence pool. The pool's state is held by EvidencePoolHolder (the
// rules are pure functions of src/evidence); after each block the pool turns
// buffered conflicts into evidence and drops what the block committed or what expired.
import { EMPTY, mergeMap, type Observable } from "rxjs";
import type { ConsensusEffect, ReportConflictingVotes } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import {
  addConflictingVotes,
  addVerifiedEvidence,
  checkEvidence,
  EMPTY_EVIDENCE_POOL,
  type EvidenceHistory,
  type EvidencePoolChanges,
  type EvidencePoolState,
  EvidenceRejectedError,
  evidenceHistoryHeights,
  evidenceKey,
  evidencePoolChanges,
  knownEvidence,
  type SignatureVerifier,
  updateEvidencePool,
} from "../../src/evidence/index.js";
import type { Logger } from "../../src/logger/index.js";
import { evidenceHeight } from "../../src/types/evidence.js";
import type { MaybePromise } from "../../src/types/maybe-async.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import { ofKinds } from "./effect-kinds.js";

/** Where conflicting votes go (the node's and the simulation's EvidencePoolHolder). */
export interface EvidenceReportDeps {
  report(e: ReportConflictingVotes): void;
}

/** The effect kinds this handler carries out (the factory routes these to it). */
export const EVIDENCE_REPORT_KINDS = ["ReportConflictingVotes"] as const;

export function evidenceReportHandler(deps: EvidenceReportDeps) {
  return function evidenceReports(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      ofKinds(EVIDENCE_REPORT_KINDS),
      mergeMap((e) => {
        deps.report(e);
        return EMPTY;
      }),
    );
  };
}

/** Where the pool's changes are made durable (the node's EvidenceStore; none in the simulation). */
export interface EvidencePersistence {
  apply(changes: EvidencePoolChanges): Promise<void>;
}

export interface EvidencePoolHolderOptions {
  /** The pool as the store left it (default empty). */
  initial?: EvidencePoolState;
  store?: EvidencePersistence;
  /**
   * The history evidence from outside is checked against: the same port block validation reads
   * (the stores, so a light client attack finds our signed headers). Default: the constructor's.
   */
  historyFor?: (heights: readonly bigint[]) => MaybePromise<EvidenceHistory>;
  /** A write to the store failed: the node halts (DESIGN §9: a storage failure stops the node). */
  onStoreFailure?: (reason: string) => void;
}

/** What became of evidence from a peer. */
export type EvidenceReceipt =
  | { readonly kind: "added" }
  /** Already pending or committed, or of a height we have not reached: ignored quietly (v0.34). */
  | { readonly kind: "ignored"; readonly why: string }
  | { readonly kind: "invalid"; readonly reason: string };

export class EvidencePoolHolder implements EvidenceReportDeps {
  private pool: EvidencePoolState;
  private writing: Promise<void> = Promise.resolve();
  private readonly listeners: ((changes: EvidencePoolChanges) => void)[] = [];
  constructor(
    private readonly history: EvidenceHistory,
    private readonly logger: Logger,
    private readonly options: EvidencePoolHolderOptions = {},
  ) {
    this.pool = options.initial ?? EMPTY_EVIDENCE_POOL;
  }

  state(): EvidencePoolState {
    return this.pool;
  }

  /** Hears every change of the pending and committed sets (the evidence gossip reactor). */
  onChange(listener: (changes: EvidencePoolChanges) => void): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Resolves once every change so far is durable. */
  flushed(): Promise<void> {
    return this.writing;
  }

  private changed(
    before: EvidencePoolState,
    committedNow: readonly Evidence[],
    height?: bigint,
  ): Promise<void> {
    const changes = evidencePoolChanges(before, this.pool, committedNow, height);
    const empty =
      changes.addPending.length +
        changes.removePending.length +
        changes.addCommitted.length +
        changes.removeCommitted.length ===
      0;
    if (empty && height === undefined) return this.writing;
    if (!empty) for (const listener of this.listeners) listener(changes);
    const store = this.options.store;
    if (store === undefined) return this.writing;
    this.writing = this.writing
      .then(() => store.apply(changes))
      .catch((error: Error) => {
        const reason = `the evidence store failed to write: ${error.message}`;
        this.logger.error(reason);
        this.options.onStoreFailure?.(reason);
      });
    return this.writing;
  }

  report(e: ReportConflictingVotes): void {
    this.pool = addConflictingVotes(this.pool, e.voteA, e.voteB);
    this.logger.info("conflicting votes reported", {
      height: e.voteA.height,
      round: e.voteA.round,
      validator: Buffer.from(e.voteA.validatorAddress).toString("hex").toUpperCase(),
    });
  }

  private historyOf(evidence: Evidence, chain: ChainState): MaybePromise<EvidenceHistory> {
    return this.options.historyFor
      ? this.options.historyFor(evidenceHistoryHeights(evidence, chain))
      : this.history;
  }

  /**
   * Evidence from outside (broadcast_evidence): checked exactly as evidence in a proposed block is,
   * then pending (durably, before this resolves) until a proposer includes it. Evidence already
   * pending or already committed is accepted without change, as v0.34's AddEvidence returns no
   * error for either (a client retrying after its evidence landed is not told it failed; the
   * evidence is never pending again, so never re-proposed); expired, unverifiable or forged
   * evidence is refused with EvidenceRejectedError.
   */
  async add(evidence: Evidence, chain: ChainState, verify: SignatureVerifier): Promise<void> {
    if (knownEvidence(this.pool, evidenceKey(evidence)) === "committed") {
      this.logger.debug("evidence already committed; nothing to add", { key: evidenceKey(evidence) });
      return;
    }
    const history = await this.historyOf(evidence, chain);
    const check = checkEvidence(this.pool, evidence, chain, history, verify);
    if (check.kind !== "valid") throw new EvidenceRejectedError(check.reason);
    if (check.alreadyPending) return;
    const before = this.pool;
    this.pool = addVerifiedEvidence(this.pool, evidence);
    this.logger.info("evidence added to the pool", { key: check.key });
    await this.changed(before, []);
  }

  /**
   * Evidence from a peer (v0.34's AddEvidence from the reactor): pending, committed and
   * not-yet-reached evidence is ignored without blame; anything else that fails the checks is
   * invalid, and the peer is reported.
   */
  async receive(evidence: Evidence, chain: ChainState, verify: SignatureVerifier): Promise<EvidenceReceipt> {
    const key = evidenceKey(evidence);
    const known = knownEvidence(this.pool, key);
    if (known !== undefined) return { kind: "ignored", why: `already ${known}` };
    const height = evidenceHeight(evidence);
    if (height > chain.lastBlockHeight) return { kind: "ignored", why: `from height ${height}, above ours` };
    const history = await this.historyOf(evidence, chain);
    const check = checkEvidence(this.pool, evidence, chain, history, verify);
    if (check.kind !== "valid") return { kind: "invalid", reason: check.reason };
    if (check.alreadyPending) return { kind: "ignored", why: "already pending" };
    const before = this.pool;
    this.pool = addVerifiedEvidence(this.pool, evidence);
    this.logger.info("evidence from a peer added to the pool", { key: check.key });
    await this.changed(before, []);
    return { kind: "added" };
  }

  afterBlock(chain: ChainState, block: Block): void {
    const before = this.pool;
    const committedNow = block.evidence?.evidence ?? [];
    this.pool = updateEvidencePool(this.pool, chain, committedNow, this.history);
    void this.changed(before, committedNow, chain.lastBlockHeight);
  }
}
