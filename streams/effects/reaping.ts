// ReapProposalBlock → ProposalBlockReaped: pending evidence first (within max evidence bytes),
// then the mempool's txs within what the block's data may hold and max gas (the mempool port:
// src/mempool's reap over the node's mempool state; a stand-in in the simulation). Reads of the
// latest pool states; the answer is logged, so replay needs neither pool. The node's port also
// makes the reaped txs' data hash and Data bytes before answering, in pieces that yield a turn of
// the event loop once REAP_WORK_BUDGET_MS of work has run (`reapTxsHashed`): the fold that builds
// the proposal then finds them done instead of hashing and encoding a block of tens of thousands of
// txs in one piece; without it (the simulation) the answer is synchronous, as before.
import { concatMap, from, map, type Observable } from "rxjs";
import type { ConsensusEffect, ReapProposalBlock } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { type EvidencePoolState, pendingEvidence } from "../../src/evidence/index.js";
import { turnsAfterWork } from "../../src/next-turn.js";
import { BLOCK_DATA_PIECE, blockDataBytesAhead } from "../../src/types/block-data-ahead.js";
import { maxDataBytes } from "../../src/types/block-limits.js";
import { DataHashPrefix } from "../../src/types/data-hash-prefix.js";
import { RecordItemsPrefix, recordItemsAhead } from "../../src/wal/record-ahead.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";
import { dataHashAhead, type TxDigests } from "../../src/wire/hashes.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { ofKinds } from "./effect-kinds.js";

export interface ReapingDeps {
  /** The mempool's txs in arrival order, within `maxBytes` of data and `maxGas` (-1: no limit). */
  reapTxs(maxBytes: number, maxGas: bigint): readonly Uint8Array[];
  /**
   * Reaps as reapTxs does and resolves once the txs' data hash is made and remembered for the
   * array it answers (src/wire/hashes.ts, dataHashAhead). The array goes into the answer as it is.
   */
  reapTxsHashed?(maxBytes: number, maxGas: bigint): Promise<readonly Uint8Array[]>;
  evidencePool(): EvidencePoolState;
}

/**
 * Work between two turns of the event loop while a proposal's data hash and Data bytes are made.
 * A 5,000-tx block is ~3 ms of both: paid as one run, not as 4 turns each waiting behind a loaded
 * turn of other work (~130 ms of the proposer's critical path under load, docs/network.md). A
 * 50k-tx block still yields every few ms, as its pieces did (docs/storage.md, Eighth/Ninth pass).
 */
export const REAP_WORK_BUDGET_MS = 4;

/**
 * The node's reaping ports over its mempool's reap: the txs, and the txs with their data hash made
 * ahead from the digests each pool entry carries (hashed as it was admitted), the tree in pieces.
 * `pauses` makes the pause of one reap's pieces (a fresh work budget per reap).
 */
export function mempoolReaping(
  reap: (maxBytes: number, maxGas: bigint) => readonly { tx: Uint8Array; digests: TxDigests }[],
  pauses: () => () => Promise<void> = () => turnsAfterWork(REAP_WORK_BUDGET_MS),
): Pick<ReapingDeps, "reapTxs" | "reapTxsHashed"> & {
  /**
   * Starts making the data hash and Data bytes of the whole pool as it stands (our turn to propose
   * is near: proposal-ahead.ts); the next reapTxsHashed finishes them over the txs admitted since,
   * when its txs start with those (types/data-hash-prefix.ts). A later call replaces an earlier.
   */
  prepareAhead(): void;
} {
  let ahead: Promise<DataHashPrefix | undefined> | undefined;
  let recordAhead: Promise<RecordItemsPrefix | undefined> | undefined;
  /** The txs' chunks of the log's record (wal/record-ahead.ts), from the prefix made ahead if it fits. */
  const recordChunks = async (txs: readonly Uint8Array[], pause: () => Promise<void>) => {
    const made = recordAhead;
    recordAhead = undefined;
    const prefix = made === undefined ? undefined : await made;
    if (prefix !== undefined && (await prefix.finish(txs, pause))) return;
    await recordItemsAhead(txs, pause);
  };
  return {
    reapTxs: (maxBytes, maxGas) => reap(maxBytes, maxGas).map((t) => t.tx),
    prepareAhead: () => {
      const pooled = reap(-1, -1n);
      // One job: the hashes first, which the proposal needs first, then the record's chunks.
      const pause = pauses();
      const hashed = DataHashPrefix.of(pooled, pause).catch(() => undefined);
      ahead = hashed;
      recordAhead = hashed
        .then(() =>
          RecordItemsPrefix.of(
            pooled.map((t) => t.tx),
            pause,
          ),
        )
        .catch(() => undefined);
    },
    reapTxsHashed: async (maxBytes, maxGas) => {
      const reaped = reap(maxBytes, maxGas);
      const txs = reaped.map((t) => t.tx);
      // A prefix made ahead is used once, by the reap that follows it (a later round reaps afresh).
      const made = ahead;
      ahead = undefined;
      const prefix = made === undefined ? undefined : await made;
      // One pause job for the reap's work, made when a piece first needs it.
      let job: (() => Promise<void>) | undefined;
      const pauseJob = () => {
        job ??= pauses();
        return job;
      };
      if (prefix === undefined || !(await prefix.finish(reaped, txs, pauseJob))) {
        const pause = pauseJob();
        await dataHashAhead(
          txs,
          reaped.map((t) => t.digests),
          pause,
        );
        // And its Data bytes, which the block's encoding in the fold copies (types/block-data-ahead.ts).
        if (txs.length > BLOCK_DATA_PIECE) await blockDataBytesAhead(txs, pause);
      }
      // And the txs as the log's record holds them, so the answer's append links them (wal/record-ahead.ts).
      await recordChunks(txs, () => pauseJob()());
      return txs;
    },
  };
}

/** The effect kinds this handler carries out (the factory routes these to it). */
export const REAPING_KINDS = ["ReapProposalBlock"] as const;

export function reapingHandler(deps: ReapingDeps) {
  /** The evidence and the bytes left for txs (0: propose no tx). */
  const contents = (e: ReapProposalBlock) => {
    const { evidence, bytes } = pendingEvidence(deps.evidencePool(), e.maxEvidenceBytes);
    let dataBytes = 0;
    try {
      dataBytes = maxDataBytes(Number(e.maxBytes), bytes, e.validatorCount);
    } catch {
      // Params too small for any tx: propose an empty block (the reducer checks the size).
    }
    return { evidence, dataBytes };
  };
  const answer = (
    e: ReapProposalBlock,
    txs: readonly Uint8Array[],
    evidence: Evidence[],
  ): ConsensusInput => ({
    type: "ProposalBlockReaped",
    time: UNSTAMPED,
    height: e.height,
    round: e.round,
    txs,
    evidence,
  });
  const hashed = deps.reapTxsHashed?.bind(deps);
  return function reaping(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    const reap$ = effect$.pipe(ofKinds(REAPING_KINDS));
    if (hashed !== undefined) {
      // In order, one at a time: a later reap (a new round) answers after an earlier one.
      return reap$.pipe(
        concatMap((e) => {
          const { evidence, dataBytes } = contents(e);
          const txs = dataBytes > 0 ? hashed(dataBytes, e.maxGas) : Promise.resolve([]);
          return from(txs.then((reaped) => answer(e, reaped, evidence)));
        }),
      );
    }
    return reap$.pipe(
      map((e) => {
        const { evidence, dataBytes } = contents(e);
        const txs = dataBytes > 0 ? deps.reapTxs(dataBytes, e.maxGas) : [];
        return answer(e, [...txs], evidence);
      }),
    );
  };
}
