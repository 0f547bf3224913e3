// A height's index input carries where each result's bytes are in the ABCI responses record
// (ResultSpans), not a view per result; the index writes each tx's body from that span, the same
// bytes as from the result encoded alone.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import {
  deliverTxSpans,
  encodeAbciResponses,
  encodeTxResult,
  type ResultSpans,
} from "../../src/store/deliver-tx-bytes.js";
import { EventIndexer } from "../../src/store/indexer/event-indexer.js";
import { heightIndexInputFrom } from "../../src/store/indexer/height-index-input.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { ResponseDeliverTx, TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { makeAbciResponses, makeBlock, makeTxs } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "index-result-spans-"));
after(() => rmSync(root, { recursive: true, force: true }));
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe("the index's results from the responses record's spans", () => {
  it("heightIndexInputFrom hands the record's spans, and no per-tx view", () => {
    const responses = makeAbciResponses(3n, 5);
    const record = encodeAbciResponses(responses);
    const input = heightIndexInputFrom(makeBlock(3n, makeTxs(3n, 5)), responses);
    assert.equal(input.resultSpans, deliverTxSpans(responses.deliverTxs));
    assert.equal(input.resultSpans?.bytes, record, "the spans are of the saved record's array");
    const spans: ResultSpans = input.resultSpans!;
    for (const [i, tx] of input.txs.entries()) {
      assert.equal(tx.resultBytes, undefined);
      assert.equal(
        hex(spans.bytes.subarray(spans.begins[i]!, spans.ends[i]!)),
        hex(ResponseDeliverTx.encode(responses.deliverTxs[i]!).finish()),
        `result ${i}'s span`,
      );
    }
  });

  it("encodeTxResult of a span writes what it writes for the result alone", () => {
    const responses = makeAbciResponses(7n, 4);
    const spans = deliverTxSpans(responses.deliverTxs);
    const tx = makeTxs(7n, 1)[0]!;
    for (let i = 0; i < 4; i++) {
      const alone = ResponseDeliverTx.encode(responses.deliverTxs[i]!).finish();
      const fromSpan = encodeTxResult(7n, i, tx, spans.bytes, undefined, spans.begins[i], spans.ends[i]);
      assert.equal(hex(fromSpan), hex(encodeTxResult(7n, i, tx, alone)));
    }
  });

  it("a height indexed from its spans finds each tx with its own result", async () => {
    const db = await openBinaryLevel(join(root, "one"));
    const indexer = await EventIndexer.open(db);
    const responses = makeAbciResponses(1n, 6);
    const txs = makeTxs(1n, 6);
    const input = heightIndexInputFrom(makeBlock(1n, txs), responses);
    assert.ok(input.resultSpans);
    await indexer.indexHeight(input);
    for (const [i, tx] of txs.entries()) {
      const found = await indexer.txs.getByHash(sha256(tx));
      assert.ok(found, `tx ${i} found`);
      assert.equal(
        hex(TxResult.encode(found).finish()),
        hex(TxResult.encode({ height: 1n, index: i, tx, result: responses.deliverTxs[i]! }).finish()),
      );
    }
    await db.close();
  });
});
