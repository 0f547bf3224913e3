// @noble/ed25519 (RFC 8032 mode) as a second opinion on ordinary keys and signatures, valid and
// corrupted. The edge-case vectors, where libraries legitimately differ, are the golden test's job.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as noble from "@noble/ed25519";
import fc from "fast-check";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import { VerifyPool } from "../../src/crypto/verify-pool.js";

const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length });

// A signature scenario: who signs, what, and how (if at all) the triple is corrupted before checking.
const scenario = fc.record({
  seed: bytes(32),
  otherSeed: bytes(32),
  message: fc.uint8Array({ maxLength: 200 }),
  corruption: fc.oneof(
    fc.constant({ kind: "none" as const }),
    fc.record({ kind: fc.constant("signature" as const), bit: fc.nat(511) }),
    fc.record({ kind: fc.constant("message" as const), bit: fc.nat(1599) }),
    fc.record({ kind: fc.constant("key" as const), bit: fc.nat(255) }),
    fc.constant({ kind: "other-signer" as const }),
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function build(s: Scenario) {
  const signer = keyPairFromSeed(s.seed);
  let publicKey = signer.publicKey;
  let message = s.message;
  let signature = signEd25519(signer.privateKey, s.message);
  const c = s.corruption;
  const flip = (b: Uint8Array, bit: number) => {
    const copy = b.slice();
    if (copy.length === 0) return copy;
    const i = Math.floor(bit / 8) % copy.length;
    copy[i] = (copy[i] as number) ^ (1 << (bit % 8));
    return copy;
  };
  if (c.kind === "signature") signature = flip(signature, c.bit);
  if (c.kind === "message") message = s.message.length === 0 ? new Uint8Array([1]) : flip(message, c.bit);
  if (c.kind === "key") publicKey = flip(publicKey, c.bit);
  if (c.kind === "other-signer") signature = signEd25519(keyPairFromSeed(s.otherSeed).privateKey, s.message);
  return { publicKey, message, signature };
}

test("node:crypto and @noble/ed25519 agree on random valid and corrupted signatures", async () => {
  let valid = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async (s) => {
      const { publicKey, message, signature } = build(s);
      const ours = verifyEd25519(publicKey, message, signature);
      let theirs: boolean;
      try {
        theirs = await noble.verifyAsync(signature, message, publicKey, { zip215: false });
      } catch {
        theirs = false; // noble throws on undecodable points; that is a rejection
      }
      assert.equal(ours, theirs);
      if (ours) valid++;
    }),
    { numRuns: 150 },
  );
  assert.ok(valid > 10, `the scenarios must include valid signatures (got ${valid})`);
});

test("the pool agrees with the calling thread on random batches", async () => {
  const pool = new VerifyPool({ size: 2, mainThreadBelow: 0 });
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(scenario, { minLength: 1, maxLength: 24 }), async (scenarios) => {
        const items = scenarios.map(build);
        const here = items.map((i) => verifyEd25519(i.publicKey, i.message, i.signature));
        assert.deepEqual(await pool.verifyBatch(items), here);
      }),
      { numRuns: 15 },
    );
  } finally {
    await pool.close();
  }
});
