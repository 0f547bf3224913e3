// Exact comparison of non-negative decimal numbers written as text, so query numbers and event
// values of any size compare without float64 rounding (CometBFT 0.34.35 compares big numbers;
// Tendermint 0.34.24's int64/float64 agree wherever they do not overflow or round).

/** A non-negative decimal: integer digits without leading zeros, fraction without trailing zeros. */
export interface Decimal {
  readonly integer: bigint;
  readonly fraction: string;
}

const DECIMAL_TEXT = /^(\d*)(?:\.(\d*))?$/;

/** Parses `digits[.digits]` (either side may be empty but not both, as Go's ParseFloat). */
export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL_TEXT.exec(text);
  if (m === null) return undefined;
  const intText = m[1] ?? "";
  const fracText = m[2] ?? "";
  if (intText.length === 0 && fracText.length === 0) return undefined;
  return { integer: intText.length === 0 ? 0n : BigInt(intText), fraction: fracText.replace(/0+$/, "") };
}

/** Drops the fraction: what Tendermint does to a dotted value compared with an integer operand. */
export function truncateDecimal(d: Decimal): Decimal {
  return d.fraction.length === 0 ? d : { integer: d.integer, fraction: "" };
}

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareDecimals(a: Decimal, b: Decimal): number {
  if (a.integer !== b.integer) return a.integer < b.integer ? -1 : 1;
  if (a.fraction === b.fraction) return 0;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, "0");
  const fb = b.fraction.padEnd(width, "0");
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}
