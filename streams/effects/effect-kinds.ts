// A consensus effect handler's kinds, stated once: each handler module exports the kinds it carries
// out and filters its stream with them (`ofKinds`), and the handler factory (consensus-handlers.ts)
// routes the same constant to it, so the loop's routing and the handler's filter cannot drift.
import { filter, type OperatorFunction } from "rxjs";
import type { ConsensusEffect } from "../../src/consensus/effect.js";

export type EffectKind = ConsensusEffect["type"];
export type EffectOfKind<K extends EffectKind> = Extract<ConsensusEffect, { type: K }>;

/** Whether `effect` is of one of `kinds` (a type guard). */
export function isOfKinds<K extends EffectKind>(
  kinds: readonly K[],
): (effect: ConsensusEffect) => effect is EffectOfKind<K> {
  const set = new Set<EffectKind>(kinds);
  return (effect): effect is EffectOfKind<K> => set.has(effect.type);
}

/** Only the effects of `kinds`, narrowed to their types. */
export function ofKinds<K extends EffectKind>(
  kinds: readonly K[],
): OperatorFunction<ConsensusEffect, EffectOfKind<K>> {
  return filter(isOfKinds(kinds));
}
