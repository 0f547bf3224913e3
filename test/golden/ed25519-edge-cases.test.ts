// The 12 "Taming the many EdDSAs" vectors: Tendermint v0.34 (Go's verifier) accepts 0, 1, 2, 3
// and 11 and rejects 4..10. Any other answer would let a crafted signature split us from peers.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Ed25519Verifier, verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import { VerifyPool } from "../../src/crypto/verify-pool.js";

interface EdgeCase {
  message: string;
  pub_key: string;
  signature: string;
}

const cases = JSON.parse(
  readFileSync(new URL("../fixtures/ed25519-edge-cases.json", import.meta.url), "utf8"),
) as EdgeCase[];
const ACCEPTED = new Set([0, 1, 2, 3, 11]);
const hex = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
const items = cases.map((c) => ({
  publicKey: hex(c.pub_key),
  message: hex(c.message),
  signature: hex(c.signature),
}));

test("there are exactly 12 edge-case vectors", () => {
  assert.equal(cases.length, 12);
});

for (const [i, item] of items.entries()) {
  const expected = ACCEPTED.has(i);
  test(`edge case ${i} is ${expected ? "accepted" : "rejected"} as Go v0.34 does`, () => {
    assert.equal(verifyEd25519(item.publicKey, item.message, item.signature), expected);
    // A fresh cache must agree with the warm shared one.
    assert.equal(new Ed25519Verifier(1).verify(item.publicKey, item.message, item.signature), expected);
  });
}

test("the worker pool gives the same 12 answers", async () => {
  const pool = new VerifyPool({ size: 2, mainThreadBelow: 0 });
  try {
    const answers = await pool.verifyBatch(items);
    assert.deepEqual(
      answers,
      items.map((_, i) => ACCEPTED.has(i)),
    );
  } finally {
    await pool.close();
  }
});
