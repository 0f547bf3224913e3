// The in-process kvstore's DeliverTx answer (src/abci/apps/kvstore-deliver-tx.ts) writes its own
// protobuf bytes into the responses record: they must be exactly what the generated encoder writes
// for the same result read field by field, or stored records, block_results and the index's bodies
// would differ from a socket app's giving the same answer.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { KvstoreApplication, kvKeyEndOf } from "../../src/abci/apps/kvstore.js";
import { KvstoreDeliverTx } from "../../src/abci/apps/kvstore-deliver-tx.js";
import { deliverTxBytes, encodeDeliverTx } from "../../src/store/deliver-tx-bytes.js";
import { ResponseDeliverTx } from "../../src/wire/generated/tendermint/abci/types.js";

const utf8 = new TextEncoder();

/** The result as a plain object, its events read once: what a socket app would have answered. */
const plain = (r: ResponseDeliverTx): ResponseDeliverTx => ({
  code: r.code,
  data: r.data,
  log: r.log,
  info: r.info,
  gasWanted: r.gasWanted,
  gasUsed: r.gasUsed,
  events: r.events,
  codespace: r.codespace,
});

const txs = [
  "name=satoshi",
  "plain",
  "a=b=c",
  "=value-without-key",
  "key-without-value=",
  `${"k".repeat(200)}=long key: its length takes two varint bytes`,
  `run-1-42=${"v".repeat(91)}`,
].map((t) => utf8.encode(t));

describe("the kvstore's DeliverTx answer", () => {
  for (const tx of txs) {
    it(`writes the bytes ResponseDeliverTx.encode writes (${JSON.stringify(Buffer.from(tx).toString().slice(0, 24))})`, () => {
      const result = new KvstoreDeliverTx(tx, kvKeyEndOf(tx));
      const expected = ResponseDeliverTx.encode(plain(result)).finish();
      assert.deepEqual(encodeDeliverTx(result), new Uint8Array(expected));
      assert.equal(result.encodedLength(), expected.length);
      // Inside a record, at an offset, among other results.
      const [, bytes] = deliverTxBytes([new KvstoreDeliverTx(tx, 0), result]);
      assert.deepEqual(new Uint8Array(bytes!), new Uint8Array(expected));
    });
  }

  it("answers the key as the app's event names it, a fresh list on each read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kvstore-deliver-tx-"));
    const app = await KvstoreApplication.open(dir);
    const result = app.deliverTx({ tx: utf8.encode("name=satoshi") });
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    const events = result.events;
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, "app");
    const attributes = events[0]!.attributes.map((a) => [
      Buffer.from(a.key).toString(),
      Buffer.from(a.value).toString(),
      a.index,
    ]);
    assert.deepEqual(attributes, [
      ["creator", "Cosmoshi Netowoko", true],
      ["key", "name", true],
      ["index_key", "index is working", true],
      ["noindex_key", "index is working", false],
    ]);
    assert.notEqual(result.events, events);
  });
});
