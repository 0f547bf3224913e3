// Matching a query against the composite-key event map of one published event, with
// Tendermint v0.34's semantics (reference §3.2):
// - a condition holds when ANY value under its key satisfies it; all conditions must hold,
//   checked in order, stopping at the first that does not;
// - an empty event map never matches;
// - numbers: the first run of [0-9.] in the value is read as a decimal; an integer operand
//   truncates a dotted value; comparison is exact (big numbers included, as CometBFT 0.34.35);
// - DATE/TIME: a value containing "T" is RFC 3339, any other a YYYY-MM-DD date;
// - a value that cannot be read as the operand's type is an error (QUERY_VALUE_UNCONVERTIBLE),
//   not a non-match, as in Tendermint; callers choose what an error means for them;
// - EXISTS: a tag with a "." needs that exact key; without one, any key starting with it.

import type { Condition, EventMap, Query } from "./ast.js";
import { compareDecimals, type Decimal, parseDecimal, truncateDecimal } from "./decimal.js";
import { QueryError } from "./errors.js";
import { parseDateNanos, parseEventValueNanos, parseRfc3339Nanos } from "./instant.js";
import { NUMBER_RUN, orderHolds } from "./ordering.js";

type ValueTest = (value: string) => boolean;

/** A query turned into closures, with operands read once (for subscriptions matching every event). */
export interface CompiledQuery {
  readonly query: Query;
  matches(events: EventMap): boolean;
}

function unconvertible(key: string, value: string, as: string): never {
  throw new QueryError(
    "QUERY_VALUE_UNCONVERTIBLE",
    `failed to convert value ${JSON.stringify(value)} of event attribute ${key} to ${as}`,
  );
}

function numberTest(condition: Condition, text: string): ValueTest {
  const operand = parseDecimal(text) as Decimal;
  const integerOperand = !text.includes(".");
  return (value) => {
    const run = NUMBER_RUN.exec(value)?.[0] ?? "";
    let parsed = parseDecimal(run);
    if (parsed === undefined) return unconvertible(condition.key, value, "a number");
    if (integerOperand) parsed = truncateDecimal(parsed);
    return orderHolds(condition.op, compareDecimals(parsed, operand));
  };
}

function instantTest(condition: Condition, operandNanos: bigint): ValueTest {
  return (value) => {
    const nanos = parseEventValueNanos(value);
    if (nanos === undefined) return unconvertible(condition.key, value, "a time");
    return orderHolds(condition.op, nanos < operandNanos ? -1 : nanos > operandNanos ? 1 : 0);
  };
}

function valueTest(condition: Condition): ValueTest {
  const operand = condition.operand;
  if (operand === undefined) throw new QueryError("QUERY_UNPRINTABLE", `${condition.op} needs an operand`);
  switch (operand.kind) {
    case "string": {
      const wanted = operand.value;
      return condition.op === "CONTAINS" ? (value) => value.includes(wanted) : (value) => value === wanted;
    }
    case "number":
      if (parseDecimal(operand.value) === undefined) {
        throw new QueryError("QUERY_INVALID_OPERAND", `${JSON.stringify(operand.value)} is not a number`);
      }
      return numberTest(condition, operand.value);
    case "date":
    case "time": {
      const nanos =
        operand.kind === "date" ? parseDateNanos(operand.value) : parseRfc3339Nanos(operand.value);
      if (nanos === undefined) {
        throw new QueryError(
          "QUERY_INVALID_OPERAND",
          `${JSON.stringify(operand.value)} is not a ${operand.kind}`,
        );
      }
      return instantTest(condition, nanos);
    }
  }
}

type ConditionTest = (events: EventMap) => boolean;

function conditionTest(condition: Condition): ConditionTest {
  const key = condition.key;
  if (condition.op === "EXISTS") {
    if (key.includes(".")) return (events) => Object.hasOwn(events, key);
    return (events) => {
      for (const candidate in events)
        if (Object.hasOwn(events, candidate) && candidate.startsWith(key)) return true;
      return false;
    };
  }
  const test = valueTest(condition);
  return (events) => {
    if (!Object.hasOwn(events, key)) return false;
    const values = events[key] as readonly string[];
    for (const value of values) if (test(value)) return true;
    return false;
  };
}

function isEmpty(events: EventMap): boolean {
  for (const key in events) if (Object.hasOwn(events, key)) return false;
  return true;
}

/** Reads the operands once; the result matches any number of event maps. */
export function compileQuery(query: Query): CompiledQuery {
  const tests = query.conditions.map(conditionTest);
  return {
    query,
    matches(events) {
      if (isEmpty(events)) return false;
      for (const test of tests) if (!test(events)) return false;
      return true;
    },
  };
}

const compiled = new WeakMap<Query, CompiledQuery>();

/**
 * Whether the events satisfy every condition of the query. Throws QueryError
 * QUERY_VALUE_UNCONVERTIBLE when a value under a compared key is not a number/time (Tendermint
 * treats that as an error too). Compiles the query once per Query object.
 */
export function matchesEvents(query: Query, events: EventMap): boolean {
  let c = compiled.get(query);
  if (c === undefined) {
    c = compileQuery(query);
    compiled.set(query, c);
  }
  return c.matches(events);
}
