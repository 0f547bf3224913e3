// Planning a search over the event index (pure). A query is a list of AND-ed conditions in the
// parsed form of the RPC's query language (src/rpc/query). The plan lists the ways the search
// could be driven: a direct hash lookup, a height range from the reserved height key, the
// entries of one (key, value) pair for a string equality, the entries of one key filtered by
// value (ranges, CONTAINS, numeric or time equality, EXISTS), or every document. The executor
// probes the candidates' sizes and walks the narrowest; the other conditions are checked on
// what it finds. A plan can also prove the query matches nothing without reading anything.
import type { Condition } from "../../query/ast.js";
import { parseDecimal } from "../../query/decimal.js";
import { type ValueTest, valueTestOf } from "./condition-test.js";
import { type DocumentKind, isReservedKey } from "./event-match.js";

const utf8 = new TextEncoder();

export type Driver =
  | { kind: "hash"; hash: Uint8Array | undefined }
  | { kind: "height-range"; from: bigint; to: bigint }
  | { kind: "event-value"; condition: Condition; key: Uint8Array; value: Uint8Array }
  | { kind: "event-key"; condition: Condition; key: Uint8Array; test: ValueTest }
  | { kind: "all" };

export interface QueryPlan {
  conditions: readonly Condition[];
  /** True when the conditions cannot all hold (empty height range, another tm.event). */
  empty: boolean;
  /** Ways to drive the search, best first for equal sizes; never empty. */
  drivers: Driver[];
}

const MAX_HEIGHT = (1n << 63n) - 1n;

function hexToBytes(hex: string): Uint8Array | undefined {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  return Uint8Array.from(Buffer.from(hex, "hex"));
}

/** Narrows [from, to] by one condition on the height key; undefined if it cannot be used. */
function heightBounds(condition: Condition): { from: bigint; to: bigint } | undefined {
  const operand = condition.operand;
  if (
    operand === undefined ||
    (operand.kind !== "number" && !(operand.kind === "string" && condition.op === "="))
  ) {
    return undefined;
  }
  const d = parseDecimal(operand.value);
  if (d === undefined) return operand.kind === "string" ? { from: 1n, to: 0n } : undefined;
  const whole = d.fraction.length === 0;
  const floor = d.integer;
  const ceil = whole ? d.integer : d.integer + 1n;
  switch (condition.op) {
    case "=":
      return whole ? { from: floor, to: floor } : { from: 1n, to: 0n };
    case ">":
      return { from: floor + 1n, to: MAX_HEIGHT };
    case ">=":
      return { from: ceil, to: MAX_HEIGHT };
    case "<":
      return { from: 0n, to: ceil - 1n };
    case "<=":
      return { from: 0n, to: floor };
    default:
      return undefined;
  }
}

export function planQuery(conditions: readonly Condition[], kind: DocumentKind): QueryPlan {
  let empty = false;
  let from = 0n;
  let to = MAX_HEIGHT;
  let heightUsed = false;
  const drivers: Driver[] = [];
  const valueDrivers: Driver[] = [];
  const keyDrivers: Driver[] = [];
  for (const condition of conditions) {
    if (condition.key === "tm.event") {
      if (!valueTestOf(condition)(kind.eventName)) empty = true;
    } else if (
      condition.key === kind.hashKey &&
      condition.op === "=" &&
      condition.operand?.kind === "string"
    ) {
      drivers.push({ kind: "hash", hash: hexToBytes(condition.operand.value) });
    } else if (condition.key === kind.heightKey) {
      const bounds = heightBounds(condition);
      if (bounds !== undefined) {
        heightUsed = true;
        if (bounds.from > from) from = bounds.from;
        if (bounds.to < to) to = bounds.to;
      }
    } else if (!isReservedKey(condition.key, kind) && condition.key.includes(".")) {
      const key = utf8.encode(condition.key);
      if (condition.op === "=" && condition.operand?.kind === "string") {
        valueDrivers.push({
          kind: "event-value",
          condition,
          key,
          value: utf8.encode(condition.operand.value),
        });
      } else {
        keyDrivers.push({ kind: "event-key", condition, key, test: valueTestOf(condition) });
      }
    }
  }
  if (heightUsed && from > to) empty = true;
  drivers.push(...valueDrivers);
  if (heightUsed) drivers.push({ kind: "height-range", from, to });
  drivers.push(...keyDrivers, { kind: "all" });
  return { conditions, empty, drivers };
}
