// Writes a query AST back as text in the canonical spelling: one space around operators and
// AND, operands as the grammar writes them. parseQuery(queryToString(q)) equals q.

import type { Condition, Operand, Query } from "./ast.js";
import { QueryError } from "./errors.js";
import { parseDateNanos, parseRfc3339Nanos } from "./instant.js";

const TAG = /^[^ \t\n\r\\()"'=><]+$/;
const NUMBER = /^(?:0|[1-9]\d*(?:\.\d*)?)$/;
const TIME = /^[12]\d{3}-[01]\d-[0-3]\dT\d{2}:\d{2}:\d{2}(?:[-+]\d{2}:\d{2}|Z)$/;
const DATE = /^[12]\d{3}-[01]\d-[0-3]\d$/;

function unprintable(index: number, why: string): never {
  throw new QueryError("QUERY_UNPRINTABLE", `condition ${index} cannot be written as query text: ${why}`);
}

function operandText(operand: Operand, index: number): string {
  switch (operand.kind) {
    case "string":
      if (/['"]/.test(operand.value)) unprintable(index, "a string operand cannot hold ' or \"");
      return `'${operand.value}'`;
    case "number":
      if (!NUMBER.test(operand.value))
        unprintable(index, `${JSON.stringify(operand.value)} is not a query number`);
      return operand.value;
    case "time":
      if (!TIME.test(operand.value) || parseRfc3339Nanos(operand.value) === undefined) {
        unprintable(index, `${JSON.stringify(operand.value)} is not a query TIME`);
      }
      return `TIME ${operand.value}`;
    case "date":
      if (!DATE.test(operand.value) || parseDateNanos(operand.value) === undefined) {
        unprintable(index, `${JSON.stringify(operand.value)} is not a query DATE`);
      }
      return `DATE ${operand.value}`;
  }
}

function conditionText(condition: Condition, index: number): string {
  const { key, op, operand } = condition;
  if (!TAG.test(key)) unprintable(index, `${JSON.stringify(key)} is not a valid tag`);
  if (op === "EXISTS") {
    if (operand !== undefined) unprintable(index, "EXISTS takes no operand");
    return `${key} EXISTS`;
  }
  if (operand === undefined) return unprintable(index, `${op} needs an operand`);
  if (op === "CONTAINS" && operand.kind !== "string") unprintable(index, "CONTAINS takes a string");
  if (op !== "=" && op !== "CONTAINS" && operand.kind === "string") {
    unprintable(index, `${op} takes a number, TIME or DATE`);
  }
  return `${key} ${op} ${operandText(operand, index)}`;
}

/** The query as text; throws QueryError QUERY_UNPRINTABLE for an AST the grammar cannot express. */
export function queryToString(query: Query): string {
  if (query.conditions.length === 0) throw new QueryError("QUERY_UNPRINTABLE", "a query needs a condition");
  return query.conditions.map(conditionText).join(" AND ");
}
