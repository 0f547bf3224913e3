// An admitted tx's own bytes are hashed once: the sha256 made where it entered (the RPC's
// broadcast, the mempool node's hashTx) is carried through CheckTx into its pool entry's digests,
// and a hash handed in that TxSha256.of did not make for that very tx object is never used.
//
// To see that admission did not hash again, each test changes the tx's bytes in place after its
// hash was made: digests equal to the hash handed in can only come from that hash, and a second
// hashing would give the hash of the changed bytes. (A pooled tx's bytes are never written by our
// code; changing them here is the probe, not a case the node meets.)
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  DEFAULT_MEMPOOL_CONFIG,
  initialMempoolState,
  type MempoolState,
  mempoolReducer,
} from "../../src/mempool/index.js";
import { TxSha256, txKeyOf } from "../../src/wire/hashes.js";
import { testMempoolNode } from "./mempool-node-fixture.js";

const sha = (bytes: Uint8Array) => new Uint8Array(createHash("sha256").update(bytes).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const tx = (s: string) => new TextEncoder().encode(s);

/** The tx folded through submission and CheckTx (code 0) with `sha256` handed in; the pool after. */
function admit(bytes: Uint8Array, key: string, sha256: unknown): MempoolState {
  let state = initialMempoolState(DEFAULT_MEMPOOL_CONFIG, 1n);
  const submission = { requestId: 1, hash: key, tx: bytes, sha256: sha256 as TxSha256, from: "rpc" };
  state = mempoolReducer(state, { type: "TxsSubmitted", submissions: [submission], time: 0 }).state;
  const result = { ...submission, code: 0, gasWanted: 0n };
  return mempoolReducer(state, { type: "CheckTxsCompleted", results: [result], time: 0 }).state;
}

test("an admitted tx's digests take the hash handed in with it: its bytes are not hashed again", () => {
  const bytes = tx("k=v");
  const handed = TxSha256.of(bytes);
  const original = hex(handed.bytes);
  bytes[0] = 0x6a; // "j=v" now; a second hashing would see these bytes
  const entry = admit(bytes, handed.key, handed).txs.get(handed.key);
  assert.ok(entry, "the tx is pooled under the key handed in");
  assert.equal(hex(entry.digests.hash), original);
  assert.ok(
    entry.digests.hash.buffer === handed.bytes.buffer &&
      entry.digests.hash.byteOffset === handed.bytes.byteOffset,
    "the digests keep the handed hash where it was written (its slot), not a copy",
  );
  assert.equal(hex(entry.digests.leaf), hex(sha(Uint8Array.of(0, ...handed.bytes))));
});

test("a hash not made by TxSha256.of for this very tx object is not used: the tx is hashed itself", () => {
  const bytes = tx("a=1");
  const key = txKeyOf(sha(bytes));
  const wrong = sha(tx("b=2"));
  const handedIn: [string, unknown][] = [
    ["made for other bytes", TxSha256.of(tx("b=2"))],
    ["made for equal bytes in another array", TxSha256.of(tx("a=1"))],
    ["an object of the same shape", { tx: bytes, bytes: wrong, key: txKeyOf(wrong) }],
    ["none", undefined],
  ];
  for (const [what, sha256] of handedIn) {
    const entry = admit(bytes, key, sha256).txs.get(key);
    assert.ok(entry, what);
    assert.equal(hex(entry.digests.hash), hex(sha(bytes)), what);
    assert.equal(hex(entry.digests.leaf), hex(sha(Uint8Array.of(0, ...sha(bytes)))), what);
  }
});

test("the node hashes an offered or submitted tx once, from the bytes it keeps, and ignores a forged hash", async () => {
  const mempool = testMempoolNode();
  const running = mempool.start();
  try {
    // Offered (broadcast_tx_async): the RPC's hashTx, then the bytes changed before admission.
    const inBody = Buffer.from("xxoffered=1yy").subarray(2, 11);
    const offered = mempool.hashTx(inBody);
    assert.notEqual(offered.tx.buffer, inBody.buffer, "the mempool keeps its own copy of a view's bytes");
    const offeredHash = hex(offered.bytes);
    offered.tx[0] = 0x4f;
    mempool.offer(offered);
    // A forged hash of the same shape: the offer hashes the tx again.
    const forgedTx = tx("forged=1");
    const wrong = sha(tx("other=1"));
    mempool.offer({ tx: forgedTx, bytes: wrong, key: txKeyOf(wrong) } as unknown as TxSha256);
    // Submitted (broadcast_tx_sync, a peer's tx): hashed by the node itself.
    const submitted = await mempool.submit(tx("sync=1"));
    assert.equal(submitted.outcome.kind, "added");
    const pool = mempool.state().txs;
    assert.equal(
      hex(pool.get(offered.key)!.digests.hash),
      offeredHash,
      "offered: the RPC's hash, not a second",
    );
    assert.equal(pool.get(txKeyOf(wrong)), undefined, "a forged key never enters the pool");
    assert.equal(hex(pool.get(txKeyOf(sha(forgedTx)))!.digests.hash), hex(sha(forgedTx)));
    assert.equal(hex(pool.get(submitted.hash)!.digests.hash), hex(sha(tx("sync=1"))));
    assert.equal(submitted.hash, txKeyOf(sha(tx("sync=1"))));
  } finally {
    running.unsubscribe();
  }
});
