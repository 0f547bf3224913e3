// The node's evidence pool, a projection of the consensus loop's folds: conflicting votes come in
// as ReportConflictingVotes effects, and each folded BlockExecuted updates the pool with the new
// chain state and the evidence its block (the CommitBlock effect of that height) committed. The
// rules are the pure functions of src/consensus/evidence-pool.ts behind EvidencePoolHolder; this
// file only decides when they run, so nothing inside an effect handler sets the pool.
import type { Observable, Subscription } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import type { Block } from "../../src/wire/generated/tendermint/types/block.js";
import { EvidencePoolHolder } from "../effects/evidence.js";

/** A fold as the projection reads it (the loop's Step). */
export interface FoldedStep {
  readonly input: ConsensusInput;
  readonly effects: readonly ConsensusEffect[];
}

export class EvidencePoolProjection extends EvidencePoolHolder {
  /** Blocks decided but not yet executed, by height (one at a time in practice). */
  private readonly deciding = new Map<bigint, Block>();

  /**
   * Follows the loop's folds; `resumed` are the effects a restart re-issues without a fold (a
   * CommitBlock left unanswered in the log).
   */
  follow(transition$: Observable<FoldedStep>, resumed: readonly ConsensusEffect[] = []): Subscription {
    for (const effect of resumed) this.see(effect);
    return transition$.subscribe(({ input, effects }) => {
      if (input?.type === "BlockExecuted") {
        const block = this.deciding.get(input.height);
        this.deciding.clear();
        if (block) this.afterBlock(input.chainState, block);
      }
      for (const effect of effects) this.see(effect);
    });
  }

  private see(effect: ConsensusEffect): void {
    if (effect.type === "ReportConflictingVotes") this.report(effect);
    else if (effect.type === "CommitBlock") this.deciding.set(effect.height, effect.block);
  }
}
