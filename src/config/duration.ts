// Go's time.Duration text form, as config.toml writes durations ("3s", "500ms", "1m30s",
// "168h0m0s"). Parsing follows Go's time.ParseDuration; formatting follows Duration.String, so a
// file rxbft writes reads the same in Tendermint and back.

/** Nanoseconds per unit, as Go's ParseDuration accepts them. */
const UNITS: ReadonlyMap<string, bigint> = new Map([
  ["ns", 1n],
  ["us", 1_000n],
  ["µs", 1_000n], // U+00B5 micro sign
  ["μs", 1_000n], // U+03BC Greek mu
  ["ms", 1_000_000n],
  ["s", 1_000_000_000n],
  ["m", 60_000_000_000n],
  ["h", 3_600_000_000_000n],
]);

const MAX_INT64 = (1n << 63n) - 1n;
/** Longest text we try to parse; a real duration is a handful of characters. */
const MAX_DURATION_TEXT = 64;

/**
 * Parses a Go duration into nanoseconds, or returns a message saying why it is not one.
 * Like Go: an optional sign, then one or more `<decimal><unit>` pairs; "0" alone is allowed.
 */
export function parseGoDuration(text: string): bigint | string {
  if (text.length === 0) return "empty duration";
  if (text.length > MAX_DURATION_TEXT) return `duration longer than ${MAX_DURATION_TEXT} characters`;
  let rest = text;
  let negative = false;
  if (rest[0] === "-" || rest[0] === "+") {
    negative = rest[0] === "-";
    rest = rest.slice(1);
  }
  if (rest === "0") return 0n;
  if (rest === "") return `invalid duration ${JSON.stringify(text)}`;
  let total = 0n;
  const pair = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;
  while (rest.length > 0) {
    const match = pair.exec(rest);
    if (!match) {
      return /^\d*\.?\d*$/.test(rest)
        ? `missing unit in duration ${JSON.stringify(text)}`
        : `invalid duration ${JSON.stringify(text)}`;
    }
    const [whole, intPart = "", fracPart] = match;
    if (intPart === "" && (fracPart === undefined || fracPart === "")) {
      return `invalid duration ${JSON.stringify(text)}`;
    }
    const unitName = match[3] as string;
    const unit = UNITS.get(unitName);
    if (unit === undefined)
      return `unknown unit ${JSON.stringify(unitName)} in duration ${JSON.stringify(text)}`;
    let value = BigInt(intPart === "" ? "0" : intPart) * unit;
    if (fracPart) {
      // Go truncates the fraction towards zero at nanosecond precision.
      const scale = 10n ** BigInt(fracPart.length);
      value += (BigInt(fracPart) * unit) / scale;
    }
    total += value;
    if (total > MAX_INT64) return `duration ${JSON.stringify(text)} overflows int64 nanoseconds`;
    rest = rest.slice(whole.length);
  }
  return negative ? -total : total;
}

/** Formats nanoseconds as Go's Duration.String does: "0s", "1.5µs", "500ms", "1m30s", "168h0m0s". */
export function formatGoDuration(nanoseconds: bigint): string {
  if (nanoseconds === 0n) return "0s";
  const sign = nanoseconds < 0n ? "-" : "";
  const ns = nanoseconds < 0n ? -nanoseconds : nanoseconds;
  if (ns < 1_000_000_000n) {
    if (ns < 1_000n) return `${sign}${ns}ns`;
    if (ns < 1_000_000n) return `${sign}${decimal(ns, 1_000n)}µs`;
    return `${sign}${decimal(ns, 1_000_000n)}ms`;
  }
  const hours = ns / 3_600_000_000_000n;
  const minutes = (ns / 60_000_000_000n) % 60n;
  const seconds = decimal(ns % 60_000_000_000n, 1_000_000_000n);
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

/** value/unit as a decimal with trailing zeros of the fraction removed. */
function decimal(value: bigint, unit: bigint): string {
  const whole = value / unit;
  const fraction = value % unit;
  if (fraction === 0n) return whole.toString();
  const digits = unit.toString().length - 1;
  return `${whole}.${fraction.toString().padStart(digits, "0").replace(/0+$/, "")}`;
}

/** Nanoseconds → milliseconds, the unit the node's timers use (exact below ~104 days). */
export function nanosecondsToMs(nanoseconds: bigint): number {
  return Number(nanoseconds) / 1e6;
}

/** Milliseconds → nanoseconds, rounding to the nearest nanosecond. */
export function msToNanoseconds(ms: number): bigint {
  return BigInt(Math.round(ms * 1e6));
}
