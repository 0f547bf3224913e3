// The subscription index (src/rpc/subscriptions/subscription-index.ts) against the linear
// matcher it replaces: for random queries and random events, the subscriptions the index
// offers and whose query matches are exactly those a scan of every subscription matches, each
// offered once; and so after random unsubscriptions. Queries come from the shared generator
// (equalities, ranges, CONTAINS, EXISTS, tx.height), events from the same vocabulary, with
// repeated values under a key and numbers, so equality, error and duplicate paths are all hit.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type CompiledQuery, compileQuery, equalityConditions, parseQuery } from "../../src/query/index.js";
import { SubscriptionIndex } from "../../src/rpc/subscriptions/subscription-index.js";
import { queryArbitrary } from "../fixtures/query-arbitrary.js";

const TYPES = ["tm", "app", "transfer"] as const;
const KEYS = ["event", "key", "amount"] as const;
const VALUES = ["Tx", "NewBlock", "k1", "k2", "1", "2", "5", "a1"] as const;

const queryArb = queryArbitrary({
  types: TYPES,
  keys: KEYS,
  values: VALUES,
  fixed: ["tm.event = 'Tx'", "app.key = 'k1'", "tm.event = 'Tx' AND app.key = 'k2'", "tx.hash = 'AB'"],
});

const eventArb = fc.dictionary(
  fc.oneof(
    fc.tuple(fc.constantFrom(...TYPES), fc.constantFrom(...KEYS)).map(([t, k]) => `${t}.${k}`),
    fc.constantFrom("tx.height", "tx.hash"),
  ),
  fc.array(fc.constantFrom(...VALUES, "AB", "3"), { minLength: 1, maxLength: 3 }),
  { maxKeys: 5 },
);

interface Sub {
  id: number;
  compiled: CompiledQuery;
}

/** The linear matcher: a query whose value cannot be compared does not match (as the hub does). */
function matches(sub: Sub, events: Record<string, string[]>): boolean {
  try {
    return sub.compiled.matches(events);
  } catch {
    return false;
  }
}

function viaIndex(index: SubscriptionIndex<Sub>, events: Record<string, string[]>): number[] {
  const offered: number[] = [];
  index.forEachCandidate(events, (sub) => {
    offered.push(sub.id);
    if (!matches(sub, events)) offered.pop();
  });
  return offered;
}

describe("subscription index", () => {
  it("offers exactly the subscriptions whose query matches, each once, before and after unsubscribing", () => {
    fc.assert(
      fc.property(
        fc.array(queryArb, { minLength: 1, maxLength: 40 }),
        fc.array(eventArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (queries, events, removals) => {
          const subs: Sub[] = queries.map((text, id) => ({ id, compiled: compileQuery(parseQuery(text)) }));
          const index = new SubscriptionIndex<Sub>();
          for (const sub of subs) index.add(sub);
          const check = (live: Sub[]) => {
            for (const event of events) {
              const got = viaIndex(index, event);
              assert.equal(new Set(got).size, got.length, "a subscription was offered twice");
              const expected = live.filter((s) => matches(s, event)).map((s) => s.id);
              assert.deepEqual(
                [...got].sort((a, b) => a - b),
                expected,
              );
            }
          };
          check(subs);
          const removed = new Set(removals.map((r) => r % subs.length));
          for (const id of removed) index.delete(subs[id] as Sub);
          assert.equal(index.size, subs.length - removed.size);
          check(subs.filter((s) => !removed.has(s.id)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("lists a query's text equalities only, in order", () => {
    const query = parseQuery(
      "tm.event = 'Tx' AND app.key = 'k1' AND tx.height = 5 AND a.b CONTAINS 'x' AND c.d = 'y'",
    );
    assert.deepEqual(equalityConditions(query), [
      { key: "tm.event", value: "Tx" },
      { key: "app.key", value: "k1" },
      { key: "c.d", value: "y" },
    ]);
    assert.deepEqual(equalityConditions(parseQuery("tx.height >= 5 AND a EXISTS")), []);
  });

  it("looks at one bucket for 1,000 filtered subscribers, not all of them", () => {
    const index = new SubscriptionIndex<Sub>();
    for (let n = 0; n < 1000; n++) {
      index.add({ id: n, compiled: compileQuery(parseQuery(`tm.event = 'Tx' AND app.key = 'k${n}'`)) });
    }
    for (let n = 0; n < 10; n++) {
      index.add({ id: 1000 + n, compiled: compileQuery(parseQuery("tm.event = 'Tx'")) });
    }
    let offered = 0;
    index.forEachCandidate({ "tm.event": ["Tx"], "app.key": ["k7"] }, () => offered++);
    assert.equal(offered, 11);
  });
});
