// The mempool message of one tx written straight into its buffer (encodeMempoolTx) is byte for
// byte what the generated protobuf encoder writes, across the varint length boundaries of both
// nested lengths (the tx's and the Txs list's), and decodes back to the tx.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeMempoolMessage, encodeMempoolTx } from "../../src/p2p/mempool-wire.js";
import { Message } from "../../src/wire/generated/tendermint/mempool/types.js";

test("encodeMempoolTx writes Message.encode's bytes for every length class", () => {
  for (const length of [0, 1, 125, 126, 127, 128, 16_380, 16_381, 16_383, 16_384, 2_097_149, 2_097_152]) {
    const tx = new Uint8Array(length).map((_, i) => (i * 31 + 7) & 0xff);
    const ours = encodeMempoolTx(tx);
    const generated = Message.encode({ sum: { $case: "txs", txs: { txs: [tx] } } }).finish();
    assert.ok(Buffer.from(ours).equals(Buffer.from(generated)), `length ${length}`);
    const back = decodeMempoolMessage(ours, 4 * 1024 * 1024);
    assert.equal(back.kind, "txs");
    if (back.kind === "txs") {
      assert.equal(back.txs.length, 1);
      assert.ok(Buffer.from(back.txs[0]!).equals(Buffer.from(tx)));
    }
  }
});
