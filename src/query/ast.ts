// The abstract syntax of Tendermint's event query language (reference §3.1): conditions on
// composite event keys joined by AND. There is no OR, NOT or grouping in the language.

export type Operator = "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";

/**
 * An operand keeps the text it was written with, so a query prints back exactly and numbers
 * of any size compare exactly (no float64 rounding):
 * - string: the characters between the single quotes (never contains `'` or `"`);
 * - number: decimal text, `0` or `[1-9][0-9]*(\.[0-9]*)?`; with a `.` it is a "float" operand,
 *   otherwise an "integer" operand (which truncates dotted event values, as Tendermint does);
 * - date: `YYYY-MM-DD`, midnight UTC;
 * - time: `YYYY-MM-DDThh:mm:ss` followed by `Z` or `±hh:mm` (RFC 3339 without fractions).
 */
export type Operand =
  | { kind: "string"; value: string }
  | { kind: "number"; value: string }
  | { kind: "date"; value: string }
  | { kind: "time"; value: string };

/** One condition. `operand` is absent exactly when `op` is "EXISTS". */
export interface Condition {
  key: string;
  op: Operator;
  operand?: Operand;
}

/** A query: every condition must hold (AND). Never empty once parsed. */
export interface Query {
  conditions: Condition[];
}

/** Events as the event bus publishes them: composite key (`type.attribute`) → values. */
export type EventMap = Readonly<Record<string, readonly string[]>>;

/** Tendermint's limit on query text for `subscribe` and `tx_search` (reference §1.2), in bytes. */
export const MAX_QUERY_LENGTH = 512;
