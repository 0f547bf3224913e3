// The comparison operators of the query language over a three-way comparison result, and the
// run of digits a numeric condition reads from an event value. Shared by live subscription
// matching and the kv indexer, so both read values the same way.
import type { Condition } from "./ast.js";

/** The first run of [0-9.] in an attribute value: what a numeric condition compares. */
export const NUMBER_RUN = /[0-9.]+/;

/** Whether `op` holds for a comparison result (negative, zero, positive); false for CONTAINS/EXISTS. */
export function orderHolds(op: Condition["op"], cmp: number): boolean {
  switch (op) {
    case "=":
      return cmp === 0;
    case "<":
      return cmp < 0;
    case "<=":
      return cmp <= 0;
    case ">":
      return cmp > 0;
    case ">=":
      return cmp >= 0;
    default:
      return false;
  }
}
