// ReapProposalBlock → ProposalBlockReaped: pending evidence first (within max evidence bytes),
// then the mempool's txs within what the block's data may hold and max gas (the mempool port:
// src/mempool's reap over the node's mempool state; a stand-in in the simulation). Reads of the
// latest pool states; the answer is logged, so replay needs neither pool.
import { map, type Observable } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { type EvidencePoolState, pendingEvidence } from "../../src/evidence/index.js";
import { maxDataBytes } from "../../src/types/block-limits.js";
import { UNSTAMPED } from "../sources/stamp-time.js";
import { ofKinds } from "./effect-kinds.js";

export interface ReapingDeps {
  /** The mempool's txs in arrival order, within `maxBytes` of data and `maxGas` (-1: no limit). */
  reapTxs(maxBytes: number, maxGas: bigint): readonly Uint8Array[];
  evidencePool(): EvidencePoolState;
}

/** The effect kinds this handler carries out (the factory routes these to it). */
export const REAPING_KINDS = ["ReapProposalBlock"] as const;

export function reapingHandler(deps: ReapingDeps) {
  return function reaping(effect$: Observable<ConsensusEffect>): Observable<ConsensusInput> {
    return effect$.pipe(
      ofKinds(REAPING_KINDS),
      map((e): ConsensusInput => {
        const { evidence, bytes } = pendingEvidence(deps.evidencePool(), e.maxEvidenceBytes);
        let dataBytes = 0;
        try {
          dataBytes = maxDataBytes(Number(e.maxBytes), bytes, e.validatorCount);
        } catch {
          // Params too small for any tx: propose an empty block (the reducer checks the size).
        }
        const txs = dataBytes > 0 ? deps.reapTxs(dataBytes, e.maxGas) : [];
        return {
          type: "ProposalBlockReaped",
          time: UNSTAMPED,
          height: e.height,
          round: e.round,
          txs: [...txs],
          evidence,
        };
      }),
    );
  };
}
