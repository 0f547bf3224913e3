// Property tests of the event query language: printing and parsing are inverse, the parser
// accepts exactly the language of reference §3.1 (checked against a regular-expression model
// of the PEG), and the matcher agrees with a plain model of §3.2 on generated event maps.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  type Condition,
  type EventMap,
  matchesEvents,
  type Operand,
  parseQuery,
  type Query,
  QueryError,
  queryToString,
} from "../../src/query/index.js";

const chars = (alphabet: string) => fc.constantFrom(...Array.from(alphabet));

const pad2 = (n: number) => String(n).padStart(2, "0");
const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

const dateText = (minYear: number) =>
  fc
    .record({
      y: fc.integer({ min: minYear, max: 2999 }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
    })
    .map(({ y, m, d }) => `${y}-${pad2(m)}-${pad2(Math.min(d, daysIn(y, m)))}`);

const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, mi, s]) => `${pad2(h)}:${pad2(mi)}:${pad2(s)}`);

const zone = fc.oneof(
  fc.constant("Z"),
  fc
    .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([sign, h, m]) => `${sign}${pad2(h)}:${pad2(m)}`),
);

const timeText = (minYear: number) =>
  fc.tuple(dateText(minYear), clock, zone).map(([d, c, z]) => `${d}T${c}${z}`);

const numberText = fc.oneof(
  fc.constant("0"),
  fc.bigInt({ min: 1n, max: 10n ** 30n }).map(String),
  fc.integer({ min: 1, max: 20 }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 20 }), fc.stringMatching(/^[0-9]{0,4}$/)).map(([i, f]) => `${i}.${f}`),
);

const tag = (alphabet: string) => fc.string({ unit: chars(alphabet), minLength: 1, maxLength: 10 });

const stringOperand = fc
  .string({
    unit: fc.oneof(chars("abc XYZ=<>()\\.ANDT"), fc.constantFrom("ü", "é", "\u{1f600}")),
    maxLength: 12,
  })
  .map((value): Operand => ({ kind: "string", value }));

function conditionArb(keys: fc.Arbitrary<string>, minYear: number): fc.Arbitrary<Condition> {
  const ordered: fc.Arbitrary<Operand> = fc.oneof(
    numberText.map((value): Operand => ({ kind: "number", value })),
    dateText(minYear).map((value): Operand => ({ kind: "date", value })),
    timeText(minYear).map((value): Operand => ({ kind: "time", value })),
  );
  // fc.record builds objects without a prototype; spread them into plain ones for deepEqual.
  return fc
    .oneof(
      fc.record({
        key: keys,
        op: fc.constantFrom("<" as const, "<=" as const, ">" as const, ">=" as const),
        operand: ordered,
      }),
      fc.record({ key: keys, op: fc.constant("=" as const), operand: fc.oneof(ordered, stringOperand) }),
      fc.record({ key: keys, op: fc.constant("CONTAINS" as const), operand: stringOperand }),
      fc.record({ key: keys, op: fc.constant("EXISTS" as const) }),
    )
    .map(
      (c): Condition =>
        "operand" in c ? { key: c.key, op: c.op, operand: { ...c.operand } } : { key: c.key, op: c.op },
    );
}

const queryArb = (keys: fc.Arbitrary<string>, minYear = 1000, maxConditions = 5): fc.Arbitrary<Query> =>
  fc
    .array(conditionArb(keys, minYear), { minLength: 1, maxLength: maxConditions })
    .map((conditions) => ({ conditions }));

const anyTag = tag("abcxyzTDE._-/:,ü0123456789");

/** The query with random (legal) spacing instead of the canonical single spaces. */
function spelled(q: Query, spaces: number[]): string {
  let i = 0;
  const sp = (min: number) => " ".repeat(min + ((spaces[i++ % spaces.length] ?? 0) % 3));
  return q.conditions
    .map((c) => {
      if (c.op === "EXISTS") return `${c.key}${sp(1)}EXISTS`;
      const o = c.operand as Operand;
      const text =
        o.kind === "string"
          ? `'${o.value}'`
          : o.kind === "number"
            ? o.value
            : `${o.kind.toUpperCase()} ${o.value}`;
      // CONTAINS after a tag needs a space, or the tag would swallow it; operators are not tag characters.
      return `${c.key}${sp(c.op === "CONTAINS" ? 1 : 0)}${c.op}${sp(0)}${text}`;
    })
    .join(`${sp(1)}AND${sp(1)}`);
}

// A regular-expression model of the PEG. The tag is matched atomically (lookahead + back
// reference) because the PEG never gives characters of a tag back.
const TAGCHARS = `[^ \\t\\n\\r\\\\()"'=><]`;
const NUM = `(?:0|[1-9][0-9]*(?:\\.[0-9]*)?)`;
const STR = `'[^'"]*'`;
const TIME = `TIME [12]\\d{3}-[01]\\d-[0-3]\\dT\\d\\d:\\d\\d:\\d\\d(?:[-+]\\d\\d:\\d\\d|Z)`;
const DATE = `DATE [12]\\d{3}-[01]\\d-[0-3]\\d`;
const cond = (n: number) =>
  `(?=(${TAGCHARS}+))\\${n} *(?:(?:<=|>=|<|>) *(?:${NUM}|${TIME}|${DATE})|= *(?:${NUM}|${TIME}|${DATE}|${STR})|CONTAINS *${STR}|EXISTS)`;
const LANGUAGE = new RegExp(`^${cond(1)}(?: +AND +${cond(2)})*$`, "u");

const TOKENS = [
  "a",
  "tm.event",
  "x.y",
  "T",
  "ü",
  " ",
  " ",
  "  ",
  "=",
  "<",
  ">",
  "<=",
  ">=",
  "AND",
  "CONTAINS",
  "EXISTS",
  "'v'",
  "''",
  "'",
  '"',
  "0",
  "5",
  "12",
  "1.5",
  ".",
  "-",
  "TIME 2013-05-03T14:45:00Z",
  "TIME 2013-05-03T14:45:00+07:00",
  "TIME ",
  "DATE 2020-02-29",
  "DATE ",
  "2020-01-01",
  "\t",
  "(",
  ")",
  "\\",
];

// Any UTF-16 text, lone surrogates included, biased towards the grammar's own characters
// (fast-check's "binary" strings cost ~1 ms each to generate).
const anyUtf16 = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0xffff }),
      fc.constantFrom(...Array.from(" =<>'\"\t.ANDTE05", (c) => c.charCodeAt(0))),
    ),
    {
      maxLength: 80,
    },
  )
  .map((codes) => String.fromCharCode(...codes));

// Near-miss queries: each part is mostly a legal spelling, sometimes an illegal one, so a
// good share parse and the rest fail at every kind of place.
const pick = (legal: string[], illegal: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...legal), weight: 15 },
    { arbitrary: fc.constantFrom(...illegal), weight: 1 },
  );
const nearMiss = fc
  .tuple(
    pick([""], [" ", "\t"]),
    fc.array(
      fc.tuple(
        pick(["a", "tm.event", "x.y", "T", "ü", "AND", "E"], ["", "a b", "(a", "aCONTAINS"]),
        pick(["", " ", "  "], ["\t"]),
        pick(["=", "<", ">", "<=", ">=", "CONTAINS", "EXISTS", "="], ["==", "=<", "contains", ""]),
        pick(["", " ", "  "], ["\t"]),
        pick(
          [
            "'v'",
            "''",
            "0",
            "5",
            "12",
            "1.5",
            "1.",
            "TIME 2013-05-03T14:45:00Z",
            "TIME 2013-05-03T14:45:00+07:00",
            "DATE 2020-02-29",
          ],
          [
            "",
            "'",
            '"x"',
            "0.5",
            "007",
            "-1",
            ".5",
            "TIME 2013-05-03",
            "DATE  2020-01-01",
            "DATE 2020-02-29T00:00:00Z",
            "'a\"b'",
            "x",
          ],
        ),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    fc.array(pick([" AND ", "  AND  ", " AND   "], [" AND", "AND ", " and ", " ", " AND AND "]), {
      minLength: 4,
      maxLength: 4,
    }),
    pick([""], [" ", "\t"]),
  )
  .map(([lead, parts, joiners, trail]) => {
    const conds = parts.map(([t, s1, op, s2, operand]) =>
      op === "EXISTS" ? `${t}${s1}${op}` : `${t}${s1}${op}${s2}${operand}`,
    );
    return lead + conds.reduce((acc, c, i) => `${acc}${joiners[i - 1]}${c}`) + trail;
  });

describe("query language properties", () => {
  it("parse(print(q)) = q for generated queries", () => {
    fc.assert(
      fc.property(queryArb(anyTag), (q) => {
        assert.deepEqual(parseQuery(queryToString(q), { maxLength: Number.POSITIVE_INFINITY }), q);
      }),
      { numRuns: 1500 },
    );
  });

  it("any legal spacing parses to the same conditions", () => {
    fc.assert(
      fc.property(queryArb(anyTag), fc.array(fc.nat(5), { minLength: 1, maxLength: 8 }), (q, spaces) => {
        assert.deepEqual(parseQuery(spelled(q, spaces), { maxLength: Number.POSITIVE_INFINITY }), q);
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts exactly the texts the grammar's model accepts, and only fails with QueryError", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 9 }), (tokens) => {
        const text = tokens.join("");
        let accepted: Query | undefined;
        try {
          accepted = parseQuery(text);
        } catch (error) {
          assert.ok(error instanceof QueryError && error.code === "QUERY_SYNTAX", String(error));
          assert.ok(error.position !== undefined && error.position >= 0 && error.position <= text.length);
        }
        assert.equal(accepted !== undefined, LANGUAGE.test(text), JSON.stringify(text));
        if (accepted !== undefined) assert.deepEqual(parseQuery(queryToString(accepted)), accepted);
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts exactly what the grammar's model accepts on near-miss queries", () => {
    let acceptedCount = 0;
    fc.assert(
      fc.property(nearMiss, (text) => {
        let accepted = false;
        try {
          const q = parseQuery(text);
          accepted = true;
          acceptedCount++;
          assert.deepEqual(parseQuery(queryToString(q)), q);
        } catch (error) {
          assert.ok(error instanceof QueryError && error.code === "QUERY_SYNTAX", String(error));
        }
        assert.equal(accepted, LANGUAGE.test(text), JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
    // The generator must reach both sides of the grammar for the comparison to mean anything.
    assert.ok(acceptedCount > 300, `only ${acceptedCount} accepted`);
  });

  it("never throws anything but a QueryError on arbitrary text", () => {
    fc.assert(
      fc.property(anyUtf16, (text) => {
        try {
          parseQuery(text);
        } catch (error) {
          assert.ok(error instanceof QueryError, String(error));
        }
      }),
      { numRuns: 1500 },
    );
  });
});

// ---- a plain model of the matching rules of reference §3.2 ----

type Outcome = boolean | "error";
const SCALE = 40;

/** The first maximal run of digits and dots, scanned by hand. */
function numberRun(value: string): string {
  let start = -1;
  for (let i = 0; i < value.length; i++) {
    const isNum =
      (value[i] as string) === "." || ((value[i] as string) >= "0" && (value[i] as string) <= "9");
    if (isNum && start < 0) start = i;
    if (!isNum && start >= 0) return value.slice(start, i);
  }
  return start < 0 ? "" : value.slice(start);
}

/** value × 10^40 as a bigint, or undefined when not a decimal. */
function scaled(text: string, truncate: boolean): bigint | undefined {
  const parts = text.split(".");
  if (parts.length > 2) return undefined;
  const [int = "", frac = ""] = parts;
  if (int === "" && frac === "") return undefined;
  if (!/^\d*$/.test(int) || !/^\d*$/.test(frac)) return undefined;
  return BigInt((int || "0") + (truncate ? "" : frac).padEnd(SCALE, "0").slice(0, SCALE));
}

function modelInstant(value: string, kind: "date" | "time"): bigint | undefined {
  const ok =
    kind === "date"
      ? /^\d{4}-\d\d-\d\d$/.test(value)
      : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?(Z|[+-]\d\d:\d\d)$/.test(value);
  if (!ok) return undefined;
  const [y, m, d] = value.slice(0, 10).split("-").map(Number) as [number, number, number];
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : BigInt(ms) * 1_000_000n;
}

function compare(op: string, a: bigint, b: bigint): boolean {
  return op === "=" ? a === b : op === "<" ? a < b : op === "<=" ? a <= b : op === ">" ? a > b : a >= b;
}

function modelValue(c: Condition, value: string): Outcome {
  const o = c.operand as Operand;
  if (o.kind === "string") return c.op === "CONTAINS" ? value.includes(o.value) : value === o.value;
  if (o.kind === "number") {
    const integer = !o.value.includes(".");
    const v = scaled(numberRun(value), integer);
    if (v === undefined) return "error";
    return compare(c.op, v, scaled(o.value, false) as bigint);
  }
  const v = modelInstant(value, value.includes("T") ? "time" : "date");
  if (v === undefined) return "error";
  return compare(c.op, v, modelInstant(o.value, o.kind) as bigint);
}

function model(q: Query, events: EventMap): Outcome {
  const keys = Object.keys(events);
  if (keys.length === 0) return false;
  for (const c of q.conditions) {
    let holds = false;
    if (c.op === "EXISTS") {
      holds = c.key.includes(".") ? keys.includes(c.key) : keys.some((k) => k.startsWith(c.key));
    } else {
      for (const value of events[c.key] ?? []) {
        const r = modelValue(c, value);
        if (r === "error") return "error";
        if (r) {
          holds = true;
          break;
        }
      }
    }
    if (!holds) return false;
  }
  return true;
}

const KEYS = ["a.b", "a.c", "tm.event", "x", "xy.z"];
const eventValue = fc.oneof(
  fc.integer({ min: 0, max: 25 }).map(String),
  fc.constantFrom("5.5", "100stake", "-3", "abc", "1.2.3", ".", "", ".5", "7.", "Tx", "NewBlock", "a5b6"),
  fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
  dateText(1970),
  fc
    .tuple(timeText(1970), fc.stringMatching(/^(\.[0-9]{1,3})?$/))
    .map(([t, f]) => t.replace(/(Z|[+-]\d\d:\d\d)$/, `${f}$1`)),
  fc.string({ unit: chars("ab5.TZ-:"), maxLength: 6 }),
);
const eventMap: fc.Arbitrary<EventMap> = fc.dictionary(
  fc.constantFrom(...KEYS),
  fc.array(eventValue, { maxLength: 4 }),
  { maxKeys: 5 },
);

describe("query matcher agrees with a plain model", () => {
  it("on generated queries and event maps", () => {
    const seen = { true: 0, false: 0, error: 0 };
    fc.assert(
      fc.property(queryArb(fc.constantFrom(...KEYS, "a", "xy", "tm"), 1970, 2), eventMap, (q, events) => {
        let actual: Outcome;
        try {
          actual = matchesEvents(q, events);
        } catch (error) {
          assert.ok(error instanceof QueryError && error.code === "QUERY_VALUE_UNCONVERTIBLE", String(error));
          actual = "error";
        }
        assert.equal(actual, model(q, events));
        seen[String(actual) as keyof typeof seen]++;
      }),
      { numRuns: 3000 },
    );
    // Every outcome must be reached often for the agreement to mean anything.
    for (const [outcome, count] of Object.entries(seen))
      assert.ok(count >= 100, `${outcome} seen ${count} times`);
  });
});
