// The recent-block cache: the time and the validator set of each recently committed height, a
// projection of the chain states BlockExecuted carries (state.lastBlockTime and lastValidators
// are the block's time and the set that signed it). The evidence pool reads it to verify evidence
// of a past height without awaiting the stores. Bounded: heights older than `keep` are dropped.
import type { EvidenceHistory } from "../../src/evidence/index.js";
import type { Timestamp } from "../../src/wire/generated/google/protobuf/timestamp.js";
import type { State as ChainState } from "../../src/wire/generated/tendermint/state/types.js";
import type { Validator } from "../../src/wire/generated/tendermint/types/validator.js";

export class RecentBlocks implements EvidenceHistory {
  private readonly byHeight = new Map<bigint, { time: Timestamp; validators: readonly Validator[] }>();

  constructor(private readonly keep: bigint) {}

  /** Records the height `state` ends (the state after executing it). */
  add(state: ChainState): void {
    const height = state.lastBlockHeight;
    if (height <= 0n || state.lastBlockTime === undefined) return;
    this.byHeight.set(height, {
      time: state.lastBlockTime,
      validators: state.lastValidators?.validators ?? [],
    });
    for (const h of this.byHeight.keys()) if (h + this.keep < height) this.byHeight.delete(h);
  }

  blockTimeAt(height: bigint): Timestamp | undefined {
    return this.byHeight.get(height)?.time;
  }

  validatorsAt(height: bigint): readonly Validator[] | undefined {
    return this.byHeight.get(height)?.validators;
  }
}
