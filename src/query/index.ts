// The event query language of Tendermint v0.34 (reference §3): parse text into conditions,
// print them back, and match them against the composite-key event maps the event bus
// publishes. Used by WebSocket subscriptions, tx_search/block_search and the indexers.

export type { Condition, EventMap, Operand, Operator, Query } from "./ast.js";
export { MAX_QUERY_LENGTH } from "./ast.js";
export { compareDecimals, type Decimal, parseDecimal, truncateDecimal } from "./decimal.js";
export { type EqualityCondition, equalityConditions, narrowestEquality } from "./equality.js";
export { QueryError, type QueryErrorCode } from "./errors.js";
export { parseDateNanos, parseEventValueNanos, parseRfc3339Nanos } from "./instant.js";
export { type CompiledQuery, compileQuery, matchesEvents } from "./matcher.js";
export { type ParseQueryOptions, parseQuery } from "./parser.js";
export { queryToString } from "./printer.js";
