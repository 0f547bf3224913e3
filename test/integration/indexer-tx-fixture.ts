// The tx index tests' shared pieces: a height whose txs each carry an indexed `app.key` equal to
// their name, a name's tx hash, and the (height, index) positions a query finds.
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import type { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import { attribute, indexedTx } from "../fixtures/store/chain-fixture.js";

export const keyedHeight = (h: bigint, names: string[]): HeightIndexInput => ({
  height: h,
  txs: names.map((name) => indexedTx(name, [{ type: "app", attributes: [attribute("key", name, true)] }])),
  beginBlockEvents: [],
  endBlockEvents: [],
});

export const hashOf = (name: string): Uint8Array => sha256(new TextEncoder().encode(name));

/** The [height, index] of every tx `query` finds, in ascending order (one page of 30). */
export async function positionsFound(indexer: EventIndexer, query: string): Promise<[bigint, number][]> {
  const found = await indexer.txs.search({
    conditions: parseQuery(query).conditions,
    page: 1,
    perPage: 30,
    order: "asc",
  });
  return found.txs.map((t) => [t.height, t.index]);
}
