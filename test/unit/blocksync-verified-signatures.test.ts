// Block sync's memory of valid signatures (src/blocksync/verified-signatures.ts): a valid
// signature is verified once, an invalid one every time, a known signature over another message
// or key is verified afresh, and the memory is bounded.
import assert from "node:assert/strict";
import { generateKeyPairSync, sign } from "node:crypto";
import { test } from "node:test";
import { VerifiedSignatures } from "../../src/blocksync/verified-signatures.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import type { VerifyItem } from "../../src/crypto/verify-item.js";

function signer() {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const raw = new Uint8Array(publicKey.export({ format: "der", type: "spki" }).subarray(-32));
  return {
    publicKey: raw,
    item: (text: string): VerifyItem => {
      const message = new TextEncoder().encode(text);
      return { publicKey: raw, message, signature: new Uint8Array(sign(null, message, privateKey)) };
    },
  };
}

/** The real verifier, counting the signatures it is asked about. */
function counting() {
  const inner = {
    asked: 0,
    verifyBatch: async (items: readonly VerifyItem[]) => {
      inner.asked += items.length;
      return items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature));
    },
  };
  return inner;
}

test("a valid signature is verified once; an invalid one every time it is asked", async () => {
  const s = signer();
  const inner = counting();
  const memo = new VerifiedSignatures(inner);
  const good = s.item("precommit 7");
  const bad = { ...s.item("precommit 8"), message: new TextEncoder().encode("precommit 9") };
  assert.deepEqual(await memo.verifyBatch([good, bad]), [true, false]);
  assert.equal(inner.asked, 2);
  assert.deepEqual(await memo.verifyBatch([bad, good, good]), [false, true, true]);
  assert.equal(inner.asked, 3, "only the invalid one asked again");
});

test("a remembered signature over another message or under another key is verified afresh", async () => {
  const s = signer();
  const other = signer();
  const inner = counting();
  const memo = new VerifiedSignatures(inner);
  const good = s.item("precommit 7");
  await memo.verifyBatch([good]);
  const otherMessage = { ...good, message: new TextEncoder().encode("precommit 70") };
  const otherKey = { ...good, publicKey: other.publicKey };
  assert.deepEqual(await memo.verifyBatch([otherMessage, otherKey]), [false, false]);
  assert.equal(inner.asked, 3);
});

test("at most `kept` signatures are remembered, the oldest leaving first", async () => {
  const s = signer();
  const inner = counting();
  const memo = new VerifiedSignatures(inner, 2);
  const [a, b, c] = [s.item("a"), s.item("b"), s.item("c")];
  await memo.verifyBatch([a, b, c]);
  assert.equal(memo.size, 2);
  inner.asked = 0;
  assert.deepEqual(await memo.verifyBatch([b, c]), [true, true]);
  assert.equal(inner.asked, 0);
  assert.deepEqual(await memo.verifyBatch([a]), [true]);
  assert.equal(inner.asked, 1, "a was forgotten");
  assert.throws(() => new VerifiedSignatures(inner, 0), /positive integer/);
});
