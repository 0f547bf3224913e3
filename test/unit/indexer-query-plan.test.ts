import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseQuery } from "../../src/query/parser.js";
import {
  BLOCK_DOCUMENT,
  compileDocumentMatcher,
  type IndexedDocument,
  TX_DOCUMENT,
} from "../../src/store/indexer/event-match.js";
import { planQuery } from "../../src/store/indexer/query-plan.js";
import { attribute } from "../fixtures/store/chain-fixture.js";

const plan = (q: string, kind = TX_DOCUMENT) => planQuery(parseQuery(q).conditions, kind);
const kinds = (q: string, kind = TX_DOCUMENT) => plan(q, kind).drivers.map((d) => d.kind);

describe("planQuery", () => {
  it("offers a hash lookup, string equalities, the height range, other keys, then a full walk", () => {
    assert.deepEqual(kinds("tx.hash = 'AB' AND a.b = 'x' AND tx.height > 3 AND a.c > 5"), [
      "hash",
      "event-value",
      "height-range",
      "event-key",
      "all",
    ]);
    assert.deepEqual(
      kinds("a.b = 5"),
      ["event-key", "all"],
      "numeric equality matches 5, 5.0 and 5stake: a filtered scan",
    );
  });

  it("intersects every height condition into one inclusive range", () => {
    const range = plan("tx.height > 3 AND tx.height <= 10 AND tx.height >= 2.5").drivers.find(
      (d) => d.kind === "height-range",
    );
    assert.deepEqual(range, { kind: "height-range", from: 4n, to: 10n });
    const fractional = plan("block.height < 7.5", BLOCK_DOCUMENT).drivers.find(
      (d) => d.kind === "height-range",
    );
    assert.deepEqual(fractional, { kind: "height-range", from: 0n, to: 7n });
  });

  it("proves emptiness without reading: disjoint heights, a fractional height, another tm.event", () => {
    assert.equal(plan("tx.height > 5 AND tx.height < 6").empty, true);
    assert.equal(plan("tx.height = 5.5").empty, true);
    assert.equal(plan("tm.event = 'NewBlock'").empty, true);
    assert.equal(plan("tm.event = 'NewBlock'", BLOCK_DOCUMENT).empty, false);
    assert.equal(plan("tm.event = 'Tx' AND tx.height = 5").empty, false);
  });

  it("turns a malformed hash into a lookup that finds nothing", () => {
    const driver = plan("tx.hash = 'XYZ'").drivers[0];
    assert.deepEqual(driver, { kind: "hash", hash: undefined });
  });
});

describe("compileDocumentMatcher", () => {
  const doc = (events: IndexedDocument["events"], height = 7n): IndexedDocument => ({
    height,
    hashHex: "ABCD",
    events,
  });
  const match = (q: string, d: IndexedDocument, kind = TX_DOCUMENT) =>
    compileDocumentMatcher(parseQuery(q).conditions, kind)(d);
  const typed = doc([
    {
      type: "cosmos.bank.v1beta1.EventSend",
      attributes: [attribute("from", "alice"), attribute("amount", "10")],
    },
    {
      type: "cosmos.bank.v1beta1.EventSend",
      attributes: [attribute("from", "bob"), attribute("amount", "20")],
    },
  ]);

  it("groups conditions by the event type before the last dot, so dotted types work", () => {
    assert.equal(
      match(
        "cosmos.bank.v1beta1.EventSend.from = 'alice' AND cosmos.bank.v1beta1.EventSend.amount = 10",
        typed,
      ),
      true,
    );
    assert.equal(
      match(
        "cosmos.bank.v1beta1.EventSend.from = 'alice' AND cosmos.bank.v1beta1.EventSend.amount = 20",
        typed,
      ),
      false,
    );
  });

  it("handles reserved keys and dot-less EXISTS at document level", () => {
    assert.equal(match("tx.height >= 7 AND tx.hash = 'abcd'", typed), true);
    assert.equal(match("tx.height > 7", typed), false);
    assert.equal(match("cosmos EXISTS", typed), true);
    assert.equal(match("transfer EXISTS", typed), false);
    assert.equal(match("block.height = 7 AND tm.event = 'NewBlock'", typed, BLOCK_DOCUMENT), true);
  });

  it("treats values that are not numbers or times as non-matches, not errors", () => {
    const odd = doc([{ type: "t", attributes: [attribute("n", "none"), attribute("d", "yesterday")] }]);
    assert.equal(match("t.n > 1", odd), false);
    assert.equal(match("t.d < DATE 2030-01-01", odd), false);
  });
});
