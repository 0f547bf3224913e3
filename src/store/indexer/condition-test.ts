// Tests of one event attribute value against one condition, with the kv indexer's semantics
// (reference §3.2): strings compare exactly or by substring; numbers read the first run of
// [0-9.] from the value (an integer operand truncates a dotted value) and compare exactly;
// DATE/TIME read a value with "T" as RFC 3339, any other as YYYY-MM-DD. A value that cannot be
// read as the operand's type does not match (the kv indexer skips it; only live subscriptions
// treat it as an error).
import type { Condition } from "../../query/ast.js";
import { compareDecimals, parseDecimal, truncateDecimal } from "../../query/decimal.js";
import { parseDateNanos, parseEventValueNanos, parseRfc3339Nanos } from "../../query/instant.js";
import { NUMBER_RUN, orderHolds } from "../../query/ordering.js";
import { StoreError } from "../errors.js";

export type ValueTest = (value: string) => boolean;

function describe(condition: Condition): string {
  return condition.operand === undefined
    ? `${condition.key} ${condition.op}`
    : `${condition.key} ${condition.op} ${condition.operand.kind} ${JSON.stringify(condition.operand.value)}`;
}

/** The value test of a condition; EXISTS accepts every value. */
export function valueTestOf(condition: Condition): ValueTest {
  if (condition.op === "EXISTS") return () => true;
  const operand = condition.operand;
  if (operand === undefined) {
    throw new StoreError("INDEX_QUERY_INVALID", `condition ${describe(condition)} needs an operand`);
  }
  switch (operand.kind) {
    case "string": {
      const wanted = operand.value;
      if (condition.op === "CONTAINS") return (value) => value.includes(wanted);
      if (condition.op === "=") return (value) => value === wanted;
      throw new StoreError(
        "INDEX_QUERY_INVALID",
        `condition ${describe(condition)}: ${condition.op} takes no string`,
      );
    }
    case "number": {
      const wanted = parseDecimal(operand.value);
      if (wanted === undefined) {
        throw new StoreError(
          "INDEX_QUERY_INVALID",
          `condition ${describe(condition)}: operand is not a number`,
        );
      }
      const truncate = !operand.value.includes(".");
      return (value) => {
        let parsed = parseDecimal(NUMBER_RUN.exec(value)?.[0] ?? "");
        if (parsed === undefined) return false;
        if (truncate) parsed = truncateDecimal(parsed);
        return orderHolds(condition.op, compareDecimals(parsed, wanted));
      };
    }
    case "date":
    case "time": {
      const wanted =
        operand.kind === "date" ? parseDateNanos(operand.value) : parseRfc3339Nanos(operand.value);
      if (wanted === undefined) {
        throw new StoreError(
          "INDEX_QUERY_INVALID",
          `condition ${describe(condition)}: operand is not a ${operand.kind}`,
        );
      }
      return (value) => {
        const nanos = parseEventValueNanos(value);
        if (nanos === undefined) return false;
        return orderHolds(condition.op, nanos < wanted ? -1 : nanos > wanted ? 1 : 0);
      };
    }
  }
}

export { describe as describeCondition };
