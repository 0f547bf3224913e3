// RFC 3339 times as genesis.json carries them, to and from a protobuf Timestamp. Formatting is
// Go's RFC3339Nano in UTC: trailing zeros of the fraction removed, "Z" suffix.

/** google.protobuf.Timestamp, as the generated data model has it. */
export interface Timestamp {
  seconds: bigint;
  nanos: number;
}

/** Go's zero time.Time, 0001-01-01T00:00:00Z; in a genesis file it means "now". */
export const ZERO_TIME_SECONDS = -62135596800n;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 time (any offset; up to nanoseconds), or returns undefined. */
export function parseRfc3339(text: string): Timestamp | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s, frac = "", zone = "Z"] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetSeconds = 0;
  if (zone !== "Z" && zone !== "z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetSeconds = sign * (oh * 3600 + om * 60);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const seconds = BigInt(date.getTime() / 1000) - BigInt(offsetSeconds);
  return { seconds, nanos: frac === "" ? 0 : Number(frac.padEnd(9, "0")) };
}

/** RFC3339Nano in UTC with the fraction's trailing zeros removed, e.g. "2019-01-01T00:00:50.52Z". */
export function formatRfc3339Nano(time: Timestamp): string {
  const date = new Date(Number(time.seconds) * 1000);
  const year = date.getUTCFullYear().toString().padStart(4, "0");
  const pad = (n: number) => n.toString().padStart(2, "0");
  const base = `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(
    date.getUTCMinutes(),
  )}:${pad(date.getUTCSeconds())}`;
  const fraction = time.nanos === 0 ? "" : `.${time.nanos.toString().padStart(9, "0").replace(/0+$/, "")}`;
  return `${base}${fraction}Z`;
}

/** The current time as a Timestamp (millisecond precision). */
export function timestampNow(): Timestamp {
  const ms = Date.now();
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
