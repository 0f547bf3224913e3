import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type EventMap, matchesEvents, parseQuery, QueryError } from "../../src/query/index.js";

const m = (query: string, events: EventMap) => matchesEvents(parseQuery(query), events);

function throwsUnconvertible(query: string, events: EventMap): void {
  assert.throws(
    () => m(query, events),
    (e: unknown) =>
      e instanceof QueryError && e.code === "QUERY_VALUE_UNCONVERTIBLE" && /attribute/.test(e.message),
  );
}

describe("query matcher: the semantics of reference §3.2", () => {
  const txEvent = {
    "tm.event": ["Tx"],
    "tx.hash": ["AB12"],
    "tx.height": ["10"],
    "transfer.sender": ["alice", "bob"],
    "transfer.amount": ["100stake"],
  };

  it("matches when every condition holds, with any of a key's values", () => {
    assert.equal(m("tm.event = 'Tx' AND tx.height = 10", txEvent), true);
    assert.equal(m("transfer.sender = 'bob'", txEvent), true);
    assert.equal(m("transfer.sender = 'carol'", txEvent), false);
    assert.equal(m("tm.event = 'NewBlock' AND tx.height = 10", txEvent), false);
    assert.equal(m("missing.key = 'x'", txEvent), false);
  });

  it("never matches an empty event map, not even EXISTS", () => {
    assert.equal(m("a EXISTS", {}), false);
    assert.equal(m("a = 'x'", {}), false);
  });

  it("compares strings exactly with = and as substrings with CONTAINS", () => {
    assert.equal(m("transfer.sender CONTAINS 'li'", txEvent), true);
    assert.equal(m("transfer.sender CONTAINS ''", txEvent), true);
    assert.equal(m("transfer.sender = 'ali'", txEvent), false);
    assert.equal(m("tx.height = '10'", txEvent), true);
  });

  it("reads the first run of digits and dots out of a value", () => {
    assert.equal(m("transfer.amount = 100", txEvent), true);
    assert.equal(m("transfer.amount > 99", txEvent), true);
    assert.equal(m("a.b = 5", { "a.b": ["-5"] }), true);
    assert.equal(m("a.b = 1", { "a.b": ["1e9"] }), true);
  });

  it("truncates a dotted value against an integer operand, compares exactly against a dotted one", () => {
    assert.equal(m("a.b = 5", { "a.b": ["5.9"] }), true);
    assert.equal(m("a.b < 5", { "a.b": ["5.9"] }), false);
    assert.equal(m("a.b = 5.0", { "a.b": ["5"] }), true);
    assert.equal(m("a.b > 5.5", { "a.b": ["5.50001"] }), true);
    assert.equal(m("a.b = 5.9", { "a.b": ["5.9000"] }), true);
    assert.equal(m("a.b = 0", { "a.b": [".5"] }), true);
    assert.equal(m("a.b = 1.", { "a.b": ["1"] }), true);
  });

  it("compares big numbers exactly, where float64 would round", () => {
    const big = "123456789012345678901234567890";
    assert.equal(m(`a.b = ${big}`, { "a.b": [big] }), true);
    assert.equal(m(`a.b = ${big}`, { "a.b": ["123456789012345678901234567891"] }), false);
    assert.equal(m(`a.b < ${big}`, { "a.b": ["123456789012345678901234567889.99"] }), true);
    assert.equal(m("a.b > 9007199254740992", { "a.b": ["9007199254740993"] }), true);
    assert.equal(m("a.b < 1.10000000000000000001", { "a.b": ["1.1"] }), true);
  });

  it("fails, rather than not matching, on values that are not numbers, in value order", () => {
    throwsUnconvertible("a.b > 5", { "a.b": ["abc"] });
    throwsUnconvertible("a.b > 5", { "a.b": ["1.2.3"] });
    throwsUnconvertible("a.b > 5", { "a.b": ["abc", "10"] });
    assert.equal(m("a.b > 5", { "a.b": ["10", "abc"] }), true);
    // Conditions are checked in order: a failed first condition hides the unreadable value.
    assert.equal(m("c.d = 'x' AND a.b > 5", { "a.b": ["abc"] }), false);
  });

  it("compares dates and times as instants, values with T as RFC 3339", () => {
    assert.equal(m("d.t >= DATE 2020-01-01", { "d.t": ["2020-01-01"] }), true);
    assert.equal(m("d.t = DATE 2020-01-01", { "d.t": ["2020-01-01T00:00:00Z"] }), true);
    assert.equal(m("d.t > DATE 2020-01-01", { "d.t": ["2020-01-01T00:00:00.000000001Z"] }), true);
    assert.equal(m("d.t = TIME 2013-05-03T14:45:00+07:00", { "d.t": ["2013-05-03T07:45:00Z"] }), true);
    assert.equal(m("d.t < TIME 2013-05-03T14:45:00Z", { "d.t": ["2013-05-03T16:44:59+02:00"] }), true);
    assert.equal(m("d.t <= TIME 2013-05-03T14:45:00Z", { "d.t": ["2013-05-03T14:45:00.5Z"] }), false);
    assert.equal(m("d.t > DATE 1999-12-31", { "d.t": ["0001-01-01T00:00:00Z"] }), false);
    throwsUnconvertible("d.t > DATE 2020-01-01", { "d.t": ["yesterday"] });
    throwsUnconvertible("d.t > DATE 2020-01-01", { "d.t": ["2020-02-30"] });
    throwsUnconvertible("d.t > DATE 2020-01-01", { "d.t": ["2020-01-01T00:00:00"] });
  });

  it("EXISTS: exact key with a dot, key prefix without", () => {
    assert.equal(m("transfer EXISTS", txEvent), true);
    assert.equal(m("trans EXISTS", txEvent), true);
    assert.equal(m("transfer.sender EXISTS", txEvent), true);
    assert.equal(m("transfer.send EXISTS", txEvent), false);
    assert.equal(m("tx.hash EXISTS", { "tx.hashes": ["x"] }), false);
    assert.equal(m("a.b EXISTS", { "a.b": [] }), true);
    assert.equal(m("bank EXISTS", txEvent), false);
  });

  it("does not see inherited properties as keys", () => {
    assert.equal(m("constructor EXISTS", { a: ["1"] }), false);
    assert.equal(m("toString = 'x'", { a: ["1"] }), false);
  });
});
