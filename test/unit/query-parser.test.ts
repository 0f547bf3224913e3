import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_QUERY_LENGTH, parseQuery, QueryError, queryToString } from "../../src/query/index.js";

function syntaxError(text: string): QueryError {
  try {
    parseQuery(text);
  } catch (error) {
    assert.ok(error instanceof QueryError, `${text}: not a QueryError`);
    return error;
  }
  assert.fail(`${JSON.stringify(text)} was accepted`);
}

describe("query parser: the grammar of reference §3.1", () => {
  it("parses a single string condition", () => {
    assert.deepEqual(parseQuery("tm.event='Tx'"), {
      conditions: [{ key: "tm.event", op: "=", operand: { kind: "string", value: "Tx" } }],
    });
  });

  it("parses every operator and operand kind joined by AND", () => {
    const q = parseQuery(
      "tm.event = 'NewBlock' AND tx.height > 5 AND a.b <= 10.25 AND c.d >= TIME 2013-05-03T14:45:00+07:00" +
        " AND e.f < DATE 2017-01-01 AND g.h CONTAINS 'abc' AND transfer EXISTS AND i.j = 0 AND k.l = 1.",
    );
    assert.deepEqual(q.conditions, [
      { key: "tm.event", op: "=", operand: { kind: "string", value: "NewBlock" } },
      { key: "tx.height", op: ">", operand: { kind: "number", value: "5" } },
      { key: "a.b", op: "<=", operand: { kind: "number", value: "10.25" } },
      { key: "c.d", op: ">=", operand: { kind: "time", value: "2013-05-03T14:45:00+07:00" } },
      { key: "e.f", op: "<", operand: { kind: "date", value: "2017-01-01" } },
      { key: "g.h", op: "CONTAINS", operand: { kind: "string", value: "abc" } },
      { key: "transfer", op: "EXISTS" },
      { key: "i.j", op: "=", operand: { kind: "number", value: "0" } },
      { key: "k.l", op: "=", operand: { kind: "number", value: "1." } },
    ]);
  });

  it("accepts any number of spaces around operators and AND, and none around operators", () => {
    assert.equal(parseQuery("a=1  AND   b  >=  2").conditions.length, 2);
    assert.deepEqual(parseQuery("a CONTAINS'x'").conditions[0]?.operand, { kind: "string", value: "x" });
    assert.deepEqual(parseQuery("a.b = ''").conditions[0]?.operand, { kind: "string", value: "" });
  });

  it("keeps odd but legal tag characters and string contents", () => {
    const q = parseQuery("mod/acc,x:ü.ключ = 'a b = AND \\ ( ) <'");
    assert.deepEqual(q.conditions[0], {
      key: "mod/acc,x:ü.ключ",
      op: "=",
      operand: { kind: "string", value: "a b = AND \\ ( ) <" },
    });
  });

  const rejected: Array<[string, number, RegExp]> = [
    [" a = 1", 0, /tag/],
    ["a = 1 ", 6, /AND/],
    ["a = 1 AND", 9, /space after AND/],
    ["a = 1 and b = 2", 6, /AND/],
    ["a = 1 OR b = 2", 6, /AND/],
    ['a = "x"', 4, /number, TIME, DATE or quoted string/],
    ["a = 'x\"'", 6, /closing single quote/],
    ["a = 'x", 6, /closing single quote/],
    ["a < 'x'", 4, /number, TIME or DATE after </],
    ["a CONTAINS 5", 11, /quoted string after CONTAINS/],
    ["a = 007", 5, /AND/],
    ["a = 0.5", 5, /AND/],
    ["a = -1", 4, /number/],
    ["a", 1, /operator/],
    ["= 1", 0, /tag/],
    ["(a = 1)", 0, /tag/],
    ["a\t= 1", 1, /operator/],
    ["aCONTAINS 'x'", 10, /operator/],
    ["a EXISTSX", 8, /AND/],
    ["a = 1ANDb = 2", 5, /AND/],
    ["a = TIME 2013-05-03T14:45:00", 9, /time/],
    ["a = TIME 2013-05-03T14:45:00.5Z", 9, /time/],
    ["a = time 2013-05-03T14:45:00Z", 4, /number/],
    ["a = DATE 3013-05-03", 9, /date/],
    ["a = DATE  2013-05-03", 9, /date/],
    ["", 0, /tag/],
  ];
  for (const [text, position, expected] of rejected) {
    it(`rejects ${JSON.stringify(text)} at ${position}`, () => {
      const error = syntaxError(text);
      assert.equal(error.code, "QUERY_SYNTAX");
      assert.equal(error.position, position);
      assert.match(error.expected ?? "", expected);
      assert.match(error.message, new RegExp(`position ${position}: expected`));
    });
  }

  it("rejects calendar dates and times that do not exist", () => {
    for (const text of [
      "a = DATE 2013-02-29",
      "a = DATE 2013-13-01",
      "a = DATE 2013-00-10",
      "a > TIME 2013-05-03T24:00:00Z",
      "a > TIME 2013-05-03T14:60:00Z",
      "a > TIME 2013-05-03T14:45:00+24:00",
    ]) {
      const error = syntaxError(text);
      assert.equal(error.code, "QUERY_INVALID_OPERAND", text);
      assert.equal(error.position, 9, text);
    }
    assert.equal(parseQuery("a = DATE 2012-02-29").conditions.length, 1);
  });

  it("limits the text to 512 bytes, counted in UTF-8 as Go does", () => {
    const fits = `a = '${"x".repeat(MAX_QUERY_LENGTH - 6)}'`;
    assert.equal(Buffer.byteLength(fits), 512);
    assert.equal(parseQuery(fits).conditions.length, 1);
    const long = syntaxError(`a = '${"x".repeat(MAX_QUERY_LENGTH - 5)}'`);
    assert.equal(long.code, "QUERY_TOO_LONG");
    assert.equal(long.message, "maximum query length exceeded");
    const multibyte = `a = '${"é".repeat(300)}'`;
    assert.ok(multibyte.length < 512);
    assert.equal(syntaxError(multibyte).code, "QUERY_TOO_LONG");
    assert.equal(parseQuery(multibyte, { maxLength: Number.POSITIVE_INFINITY }).conditions.length, 1);
  });
});

describe("query printer", () => {
  it("writes the canonical spelling", () => {
    const q = parseQuery(
      "a=1 AND b   CONTAINS'x' AND c EXISTS AND d<=DATE 2020-02-02 AND e>TIME 2020-02-02T00:00:00Z",
    );
    assert.equal(
      queryToString(q),
      "a = 1 AND b CONTAINS 'x' AND c EXISTS AND d <= DATE 2020-02-02 AND e > TIME 2020-02-02T00:00:00Z",
    );
  });

  it("refuses ASTs the language cannot express", () => {
    const bad = [
      { conditions: [] },
      { conditions: [{ key: "a b", op: "=" as const, operand: { kind: "string" as const, value: "x" } }] },
      { conditions: [{ key: "a", op: "=" as const, operand: { kind: "string" as const, value: "it's" } }] },
      { conditions: [{ key: "a", op: "<" as const, operand: { kind: "string" as const, value: "x" } }] },
      { conditions: [{ key: "a", op: "=" as const, operand: { kind: "number" as const, value: "-1" } }] },
      {
        conditions: [{ key: "a", op: "CONTAINS" as const, operand: { kind: "number" as const, value: "1" } }],
      },
      { conditions: [{ key: "a", op: "=" as const }] },
      { conditions: [{ key: "a", op: "EXISTS" as const, operand: { kind: "number" as const, value: "1" } }] },
      {
        conditions: [{ key: "a", op: "=" as const, operand: { kind: "date" as const, value: "2013-02-30" } }],
      },
    ];
    for (const q of bad) {
      assert.throws(
        () => queryToString(q),
        (e: unknown) => e instanceof QueryError && e.code === "QUERY_UNPRINTABLE",
      );
    }
  });
});
