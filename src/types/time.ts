// Timestamps as the wire carries them ({seconds: bigint, nanos: number}), with Go's zero time and
// RFC 3339 conversion at nanosecond precision (Tendermint prints RFC3339Nano, UTC).
import type { Timestamp } from "../wire/generated/google/protobuf/timestamp.js";
import { TypesError } from "./errors.js";

export type { Timestamp };

/** Go's time.Time{} (0001-01-01T00:00:00Z): the timestamp of absent signatures and empty votes. */
export const GO_ZERO_TIME_SECONDS = -62135596800n;

export function goZeroTime(): Timestamp {
  return { seconds: GO_ZERO_TIME_SECONDS, nanos: 0 };
}

export function isGoZeroTime(t: Timestamp): boolean {
  return t.seconds === GO_ZERO_TIME_SECONDS && t.nanos === 0;
}

/** Negative, zero or positive as a is before, equal to or after b. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1;
}

/** Nanoseconds since the Unix epoch. */
export function timestampToNanos(t: Timestamp): bigint {
  return t.seconds * 1_000_000_000n + BigInt(t.nanos);
}

export function timestampFromNanos(nanos: bigint): Timestamp {
  let seconds = nanos / 1_000_000_000n;
  let rest = nanos % 1_000_000_000n;
  if (rest < 0n) {
    rest += 1_000_000_000n;
    seconds -= 1n;
  }
  return { seconds, nanos: Number(rest) };
}

export function timestampFromMillis(millis: number): Timestamp {
  return timestampFromNanos(BigInt(Math.trunc(millis)) * 1_000_000n);
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 time with up to nanosecond fractions, e.g. `2019-10-13T16:14:44.123456789Z`. */
export function timestampFromRfc3339(text: string): Timestamp {
  const m = RFC3339.exec(text);
  if (!m)
    throw new TypesError(
      "TYPES_INVALID_TIME",
      `time must be RFC 3339 (e.g. 2019-10-13T16:14:44Z), got "${text}"`,
    );
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const millis = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (
    Number.isNaN(millis) ||
    Number(mo) > 12 ||
    Number(d) > 31 ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  )
    throw new TypesError("TYPES_INVALID_TIME", `time "${text}" is out of range`);
  // Date.UTC maps years 0–99 to 1900+: set year, month and day together on a fresh date, then
  // check nothing rolled over (2021-02-30 would silently become 2021-03-02; Go refuses it).
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  if (
    date.getUTCFullYear() !== Number(y) ||
    date.getUTCMonth() !== Number(mo) - 1 ||
    date.getUTCDate() !== Number(d)
  )
    throw new TypesError("TYPES_INVALID_TIME", `time "${text}" is out of range (day ${d} of month ${mo})`);
  let seconds = BigInt(Math.floor(date.getTime() / 1000));
  if (sign !== undefined) {
    const offset = BigInt(Number(oh) * 3600 + Number(om) * 60);
    seconds += sign === "+" ? -offset : offset;
  }
  const nanos = frac === undefined ? 0 : Number(frac.padEnd(9, "0"));
  return { seconds, nanos };
}

/** RFC3339Nano in UTC as Go prints it: fraction without trailing zeros, none when zero. */
export function timestampToRfc3339(t: Timestamp): string {
  const date = new Date(Number(t.seconds) * 1000);
  const iso = date.toISOString(); // yyyy-mm-ddThh:mm:ss.000Z (years 0–9999)
  const base = iso.slice(0, 19);
  const fraction = t.nanos === 0 ? "" : `.${String(t.nanos).padStart(9, "0").replace(/0+$/, "")}`;
  return `${base}${fraction}Z`;
}
