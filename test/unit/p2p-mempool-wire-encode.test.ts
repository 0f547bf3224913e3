// The mempool message of one tx written straight into its buffer (encodeMempoolTx) is byte for
// byte what the generated protobuf encoder writes, across the varint length boundaries of both
// nested lengths (the tx's and the Txs list's), and decodes back to the tx.
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeMempoolMessage, encodeMempoolTx, oneTxOf } from "../../src/p2p/mempool-wire.js";
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

test("a tx that ends a buffer holding exactly its one-tx message gets that buffer back, any other a fresh one", () => {
  for (const length of [1, 125, 126, 127, 128, 16_381, 16_384]) {
    const tx = new Uint8Array(length).map((_, i) => (i * 17 + 3) & 0xff);
    const generated = Buffer.from(Message.encode({ sum: { $case: "txs", txs: { txs: [tx] } } }).finish());
    const received = Uint8Array.from(generated); // a peer's message in a buffer of its own
    const view = oneTxOf(received)!;
    const again = encodeMempoolTx(view);
    assert.equal(again.buffer, received.buffer, `length ${length}: the received message itself`);
    assert.ok(Buffer.from(again).equals(generated), `length ${length}`);

    // The same tail behind another header (Message field 2), or with a byte after it: encoded afresh.
    const otherHeader = Uint8Array.from(generated);
    otherHeader[0] = 0x12;
    const tail = otherHeader.subarray(generated.length - length);
    const fresh = encodeMempoolTx(tail);
    assert.notEqual(fresh.buffer, otherHeader.buffer);
    assert.ok(Buffer.from(fresh).equals(generated), `length ${length}, other header`);
    const longer = new Uint8Array(generated.length + 1);
    longer.set(generated);
    const inLonger = encodeMempoolTx(longer.subarray(generated.length - length, generated.length));
    assert.notEqual(inLonger.buffer, longer.buffer);
    assert.ok(Buffer.from(inLonger).equals(generated), `length ${length}, longer buffer`);
  }
});
