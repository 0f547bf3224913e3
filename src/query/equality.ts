// The equality conditions of a query: `key = 'text'`, the ones an event can only satisfy by
// carrying exactly that text under that key (matcher.ts compares string operands with ===).
// Subscriptions are indexed by one of them (rpc/subscriptions/subscription-index.ts), so an
// event is matched only against the queries that could match it. Numeric and time equalities
// are not text equalities (`x = 5` holds for "5.0" and "5 apples"): they are never listed.

import type { Query } from "./ast.js";

export interface EqualityCondition {
  readonly key: string;
  readonly value: string;
}

/** Every `key = 'text'` condition of the query, in order (repeats kept). */
export function equalityConditions(query: Query): EqualityCondition[] {
  const found: EqualityCondition[] = [];
  for (const condition of query.conditions) {
    if (condition.op === "=" && condition.operand?.kind === "string") {
      found.push({ key: condition.key, value: condition.operand.value });
    }
  }
  return found;
}

/** Keys whose values are shared by most events (every event has one tm.event): index by them last. */
const BROAD_KEYS = new Set(["tm.event"]);

/**
 * The equality condition that narrows the query most: the last one on a key other than
 * tm.event (an app's own attribute, tx.hash), else tm.event's; undefined when it has none.
 */
export function narrowestEquality(query: Query): EqualityCondition | undefined {
  const all = equalityConditions(query);
  for (let i = all.length - 1; i >= 0; i--) {
    const condition = all[i] as EqualityCondition;
    if (!BROAD_KEYS.has(condition.key)) return condition;
  }
  return all[all.length - 1];
}
