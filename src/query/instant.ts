// Calendar instants for DATE and TIME conditions, as nanoseconds since the Unix epoch (bigint,
// so years 0000–9999 and fractions of any length compare exactly). Parsing follows Go's
// time.Parse with the layouts Tendermint uses: RFC 3339 ("2006-01-02T15:04:05Z07:00", which
// also accepts a fraction after the seconds) and the date layout "2006-01-02".

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const NANOS_PER_SECOND = 1_000_000_000n;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Parses `YYYY-MM-DD` as midnight UTC; undefined when it is not a real date. */
export function parseDateNanos(text: string): bigint | undefined {
  const m = DATE.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (!validDate(year, month, day)) return undefined;
  return BigInt(daysFromCivil(year, month, day)) * 86_400n * NANOS_PER_SECOND;
}

/** Parses an RFC 3339 timestamp (optional fraction, `Z` or `±hh:mm`); undefined when invalid. */
export function parseRfc3339Nanos(text: string): bigint | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (!validDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetSeconds = 0;
  if (m[8] === undefined) {
    const offHour = Number(m[10]);
    const offMinute = Number(m[11]);
    if (offHour > 23 || offMinute > 59) return undefined;
    offsetSeconds = (offHour * 3600 + offMinute * 60) * (m[9] === "-" ? -1 : 1);
  }
  // Go keeps nine digits of the fraction and drops the rest.
  const fraction = m[7] === undefined ? 0n : BigInt(m[7].slice(0, 9).padEnd(9, "0"));
  const seconds =
    daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds;
  return BigInt(seconds) * NANOS_PER_SECOND + fraction;
}

/**
 * Reads an event attribute value as an instant the way Tendermint does (reference §3.2): a
 * value containing `T` is RFC 3339, any other is a date. Undefined when it is neither.
 */
export function parseEventValueNanos(value: string): bigint | undefined {
  return value.includes("T") ? parseRfc3339Nanos(value) : parseDateNanos(value);
}
