import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { NULL_BLOCK_INDEX, NULL_TX_INDEX } from "../../src/store/indexer/null-indexer.js";
import { type BinaryLevel, openBinaryLevel } from "../../src/store/level-database.js";
import type { Event } from "../../src/wire/generated/tendermint/abci/types.js";
import { attribute, bytes, indexedTx } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "indexer-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;

const tx = indexedTx;
const ev = (type: string, attrs: [string, string, boolean?][]): Event => ({
  type,
  attributes: attrs.map(([k, v, index]) => attribute(k, v, index ?? true)),
});

async function fresh(options = {}): Promise<{ db: BinaryLevel; indexer: EventIndexer; path: string }> {
  const path = join(root, `db${dbCount++}`);
  const db = await openBinaryLevel(path);
  return { db, indexer: await EventIndexer.open(db, options), path };
}

async function search(
  indexer: EventIndexer,
  query: string,
  page = 1,
  perPage = 30,
  order: "asc" | "desc" = "asc",
) {
  const result = await indexer.txs.search({ conditions: parseQuery(query).conditions, page, perPage, order });
  return { total: result.total, labels: result.txs.map((t) => new TextDecoder().decode(t.tx)) };
}

describe("event indexer: tx search", () => {
  let db: BinaryLevel;
  let indexer: EventIndexer;
  before(async () => {
    ({ db, indexer } = await fresh());
    await indexer.indexHeight({
      height: 1n,
      txs: [
        // a and 10 both appear, but in two different transfer events.
        tx("split", [
          ev("transfer", [
            ["sender", "a"],
            ["amount", "5"],
          ]),
          ev("transfer", [
            ["sender", "b"],
            ["amount", "10"],
          ]),
        ]),
        tx("together", [
          ev("transfer", [
            ["sender", "a"],
            ["amount", "10stake"],
          ]),
          ev("message", [["action", "send"]]),
        ]),
        tx("hidden", [
          ev("transfer", [["sender", "z", false]]),
          ev("when", [
            ["day", "2024-03-05"],
            ["at", "2024-03-05T10:00:00Z"],
          ]),
        ]),
      ],
      beginBlockEvents: [],
      endBlockEvents: [],
    });
    for (let h = 2n; h <= 6n; h++) {
      await indexer.indexHeight({
        height: h,
        txs: [
          tx(`h${h}a`, [
            ev("transfer", [
              ["sender", "c"],
              ["amount", `${h}`],
            ]),
          ]),
          tx(`h${h}b`, [ev("transfer", [["sender", "c"]])]),
        ],
        beginBlockEvents: [],
        endBlockEvents: [],
      });
    }
  });
  after(() => db.close());

  it("matches AND-ed attributes only within one event", async () => {
    assert.deepEqual((await search(indexer, "transfer.sender = 'a' AND transfer.amount = 10")).labels, [
      "together",
    ]);
    assert.deepEqual((await search(indexer, "transfer.sender = 'b' AND transfer.amount = 10")).labels, [
      "split",
    ]);
    assert.deepEqual((await search(indexer, "transfer.sender = 'a' AND transfer.amount = '5'")).labels, [
      "split",
    ]);
    assert.equal((await search(indexer, "transfer.sender = 'b' AND transfer.amount = 5")).total, 0);
  });

  it("matches conditions on different event types in their own events", async () => {
    assert.deepEqual((await search(indexer, "transfer.sender = 'a' AND message.action = 'send'")).labels, [
      "together",
    ]);
    assert.equal((await search(indexer, "transfer.sender = 'b' AND message.action = 'send'")).total, 0);
  });

  it("never finds attributes stored with index=false", async () => {
    assert.equal((await search(indexer, "transfer.sender = 'z'")).total, 0);
  });

  it("compares numbers, substrings, existence, dates and times", async () => {
    assert.deepEqual((await search(indexer, "transfer.amount > 4 AND transfer.amount <= 5")).labels, [
      "split",
      "h5a",
    ]);
    assert.deepEqual((await search(indexer, "transfer.amount >= 10")).labels, ["split", "together"]);
    assert.deepEqual((await search(indexer, "transfer.amount CONTAINS 'stake'")).labels, ["together"]);
    assert.equal((await search(indexer, "transfer.amount EXISTS")).total, 7);
    assert.equal((await search(indexer, "transfer EXISTS")).total, 12);
    assert.deepEqual((await search(indexer, "when.day >= DATE 2024-03-05")).labels, ["hidden"]);
    assert.equal((await search(indexer, "when.day < DATE 2024-03-05")).total, 0);
    assert.deepEqual((await search(indexer, "when.at > TIME 2024-03-05T09:59:59Z")).labels, ["hidden"]);
  });

  it("answers the reserved keys tx.hash, tx.height and tm.event", async () => {
    const hash = Buffer.from(sha256(bytes("h3b")))
      .toString("hex")
      .toUpperCase();
    assert.deepEqual((await search(indexer, `tx.hash = '${hash}'`)).labels, ["h3b"]);
    assert.deepEqual((await search(indexer, `tx.hash = '${hash.toLowerCase()}'`)).labels, ["h3b"]);
    assert.equal((await search(indexer, `tx.hash = '${hash}' AND tx.height = 4`)).total, 0);
    assert.equal((await search(indexer, "tx.hash = 'ZZ'")).total, 0);
    assert.deepEqual((await search(indexer, "tx.height = 3")).labels, ["h3a", "h3b"]);
    assert.deepEqual((await search(indexer, "tx.height >= 5 AND transfer.amount EXISTS")).labels, [
      "h5a",
      "h6a",
    ]);
    assert.deepEqual((await search(indexer, "transfer.sender = 'c' AND tx.height < 3")).labels, [
      "h2a",
      "h2b",
    ]);
    assert.equal((await search(indexer, "tm.event = 'Tx'")).total, 13);
    assert.equal((await search(indexer, "tm.event = 'NewBlock' AND tx.height = 3")).total, 0);
    assert.equal((await search(indexer, "tx.height > 6")).total, 0);
  });

  it("orders by height and index, pages, and refuses pages past the end", async () => {
    const asc = await search(indexer, "transfer.sender = 'c'", 2, 4);
    assert.equal(asc.total, 10);
    assert.deepEqual(asc.labels, ["h4a", "h4b", "h5a", "h5b"]);
    const desc = await search(indexer, "transfer.sender = 'c'", 1, 3, "desc");
    assert.deepEqual(desc.labels, ["h6b", "h6a", "h5b"]);
    assert.deepEqual((await search(indexer, "transfer.sender = 'c'", 3, 4)).labels, ["h6a", "h6b"]);
    await assert.rejects(
      search(indexer, "transfer.sender = 'c'", 4, 4),
      /page should be within \[1, 3\] range, given 4/,
    );
    const none = await search(indexer, "transfer.sender = 'nobody'");
    assert.deepEqual(none, { total: 0, labels: [] }, "an empty result still has page 1");
  });

  it("loads a tx by hash with its height, index and result", async () => {
    const result = await indexer.txs.getByHash(sha256(bytes("together")));
    assert.equal(result?.height, 1n);
    assert.equal(result?.index, 1);
    assert.equal(result?.result.events[1]?.type, "message");
    assert.equal(await indexer.txs.getByHash(new Uint8Array(32)), undefined);
  });
});

describe("event indexer: budgets, duplicates, reopen", () => {
  it("reports an error instead of a partial answer when a query is too broad", async () => {
    const { db, indexer } = await fresh({ budget: { maxScanEntries: 20, maxVerifiedDocuments: 5 } });
    const txs = Array.from({ length: 30 }, (_, i) =>
      tx(`t${i}`, [
        ev("m", [
          ["k", "v"],
          ["n", `${i}`],
        ]),
      ]),
    );
    await indexer.indexHeight({ height: 1n, txs, beginBlockEvents: [], endBlockEvents: [] });
    await assert.rejects(search(indexer, "m.k = 'v'"), (e: Error & { code?: string }) => {
      assert.equal(e.code, "INDEX_QUERY_TOO_BROAD");
      assert.match(e.message, /m\.k = string "v" needs more than 20 index entries/);
      return true;
    });
    // Narrow enough to scan but needing too many documents checked: also an error.
    const wide = await fresh({ budget: { maxScanEntries: 100, maxVerifiedDocuments: 5 } });
    await wide.indexer.indexHeight({ height: 1n, txs, beginBlockEvents: [], endBlockEvents: [] });
    await assert.rejects(search(wide.indexer, "m.n > 2 AND m.k CONTAINS 'v'"), /too broad/);
    assert.equal((await search(wide.indexer, "m.n = 7 AND m.k = 'v'")).total, 1);
    await wide.db.close();
    await db.close();
  });

  it("moves a tx indexed again at a later height: one home per hash", async () => {
    const { db, indexer } = await fresh();
    await indexer.indexHeight({
      height: 1n,
      txs: [tx("dup", [ev("a", [["b", "old"]])])],
      beginBlockEvents: [],
      endBlockEvents: [],
    });
    await indexer.indexHeight({
      height: 2n,
      txs: [tx("dup", [ev("a", [["b", "new"]])])],
      beginBlockEvents: [],
      endBlockEvents: [],
    });
    assert.equal((await indexer.txs.getByHash(sha256(bytes("dup"))))?.height, 2n);
    assert.equal((await search(indexer, "a.b = 'old'")).total, 0);
    assert.equal((await search(indexer, "a.b = 'new'")).total, 1);
    assert.equal((await search(indexer, "tm.event = 'Tx'")).total, 1);
    await db.close();
  });

  it("keeps the later of two copies of a tx in one block, also when the height is indexed again", async () => {
    const { db, indexer } = await fresh();
    const input = {
      height: 3n,
      txs: [
        tx("twin", [ev("a", [["b", "first"]])]),
        tx("other", []),
        tx("twin", [ev("a", [["b", "second"]])]),
      ],
      beginBlockEvents: [],
      endBlockEvents: [],
    };
    for (let round = 0; round < 2; round++) {
      await indexer.indexHeight(input);
      assert.equal((await indexer.txs.getByHash(sha256(bytes("twin"))))?.index, 2);
      assert.equal((await search(indexer, "a.b = 'first'")).total, 0);
      assert.deepEqual((await search(indexer, "a.b = 'second'")).labels, ["twin"]);
      assert.deepEqual((await search(indexer, "tx.height = 3")).labels, ["other", "twin"]);
    }
    await db.close();
  });

  it("keeps the indexed height across reopen and re-indexes a height idempotently", async () => {
    const { db, indexer, path } = await fresh();
    const input = {
      height: 9n,
      txs: [tx("x", [ev("a", [["b", "c"]])])],
      beginBlockEvents: [],
      endBlockEvents: [],
    };
    await indexer.indexHeight(input);
    await indexer.indexHeight(input);
    assert.equal((await search(indexer, "a.b = 'c'")).total, 1);
    await db.close();
    const db2 = await openBinaryLevel(path);
    const reopened = await EventIndexer.open(db2);
    assert.equal(reopened.indexedHeight(), 9n);
    await db2.close();
  });
});

describe("event indexer: key layout", () => {
  it("keeps values that are prefixes of each other, or hold NUL bytes, apart", async () => {
    const { db, indexer } = await fresh();
    await indexer.indexHeight({
      height: 1n,
      txs: [
        tx("one", [ev("k", [["v", "a"]])]),
        tx("two", [ev("k", [["v", "a\u0000b"]])]),
        tx("three", [ev("k\u0000", [["v", "a"]])]),
      ],
      beginBlockEvents: [],
      endBlockEvents: [],
    });
    assert.deepEqual((await search(indexer, "k.v = 'a'")).labels, ["one"]);
    assert.deepEqual((await search(indexer, "k.v CONTAINS 'a'")).labels, ["one", "two"]);
    await db.close();
  });
});

describe("event indexer: block search", () => {
  it("finds heights by begin/end block events within one event, newest first by default order", async () => {
    const { db, indexer } = await fresh();
    for (let h = 1n; h <= 8n; h++) {
      await indexer.indexHeight({
        height: h,
        txs: [],
        beginBlockEvents: [
          ev("reward", [
            ["validator", h % 2n === 0n ? "even" : "odd"],
            ["amount", `${h}`],
          ]),
        ],
        endBlockEvents: [
          ev("reward", [
            ["validator", "end"],
            ["amount", "100"],
          ]),
        ],
      });
    }
    const conditions = (q: string) => parseQuery(q).conditions;
    const desc = await indexer.blocks.search({
      conditions: conditions("reward.validator = 'even'"),
      page: 1,
      perPage: 30,
      order: "desc",
    });
    assert.deepEqual(desc.heights, [8n, 6n, 4n, 2n]);
    const within = await indexer.blocks.search({
      conditions: conditions("reward.validator = 'odd' AND reward.amount = 100"),
      page: 1,
      perPage: 30,
      order: "asc",
    });
    assert.equal(within.total, 0, "odd and 100 are in different events");
    const ranged = await indexer.blocks.search({
      conditions: conditions("block.height >= 3 AND block.height < 6 AND reward.amount > 3"),
      page: 1,
      perPage: 30,
      order: "asc",
    });
    assert.deepEqual(ranged.heights, [3n, 4n, 5n]);
    assert.equal(await indexer.blocks.has(8n), true);
    assert.equal(await indexer.blocks.has(9n), false);
    await db.close();
  });
});

describe("null indexer", () => {
  it("fails reads with Tendermint's messages", async () => {
    await assert.rejects(NULL_TX_INDEX.getByHash(new Uint8Array(32)), /transaction indexing is disabled/);
    await assert.rejects(
      NULL_TX_INDEX.search({ conditions: [], page: 1, perPage: 1, order: "asc" }),
      /transaction indexing is disabled/,
    );
    await assert.rejects(
      NULL_BLOCK_INDEX.search({ conditions: [], page: 1, perPage: 1, order: "asc" }),
      /block indexing is disabled/,
    );
  });
});
