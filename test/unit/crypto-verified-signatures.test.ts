import assert from "node:assert/strict";
import { test } from "node:test";
import { keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import { VerifiedSignatures } from "../../src/crypto/verified-signatures.js";

const signer = keyPairFromSeed(new Uint8Array(32).fill(3));
const other = keyPairFromSeed(new Uint8Array(32).fill(4));
const message = (i: number) => new TextEncoder().encode(`precommit ${i}`);

function counted() {
  const calls = { real: 0 };
  const check = (k: Uint8Array, m: Uint8Array, s: Uint8Array) => {
    calls.real++;
    return verifyEd25519(k, m, s);
  };
  return { calls, check };
}

test("each exact triple is verified for real once; its answer, true or false, is repeated", () => {
  const { calls, check } = counted();
  const memo = new VerifiedSignatures(100, check);
  const good = signEd25519(signer.privateKey, message(1));
  const bad = good.slice();
  bad[5] ^= 1;
  for (let i = 0; i < 3; i++) {
    assert.equal(memo.verify(signer.publicKey, message(1), good), true);
    assert.equal(memo.verify(signer.publicKey, message(1), bad), false);
  }
  assert.equal(calls.real, 2);
  assert.deepEqual([memo.hits, memo.misses], [4, 2]);
});

test("the same signature with another message or key is verified again, never answered from the memo", () => {
  const { calls, check } = counted();
  const memo = new VerifiedSignatures(100, check);
  const good = signEd25519(signer.privateKey, message(1));
  assert.equal(memo.verify(signer.publicKey, message(1), good), true);
  assert.equal(memo.verify(signer.publicKey, message(2), good), false);
  assert.equal(memo.verify(other.publicKey, message(1), good), false);
  assert.equal(calls.real, 3);
});

test("the memo keeps its own copies: changing the caller's bytes afterwards changes no answer", () => {
  const memo = new VerifiedSignatures(100);
  const bytes = message(7);
  const signature = signEd25519(signer.privateKey, bytes);
  assert.equal(memo.verify(signer.publicKey, bytes, signature), true);
  bytes[0] ^= 1;
  assert.equal(memo.known(signer.publicKey, bytes, signature), undefined);
  assert.equal(memo.verify(signer.publicKey, bytes, signature), false);
});

test("bounded: the oldest answer goes first; malformed triples are never stored", () => {
  const memo = new VerifiedSignatures(2);
  const sigs = [0, 1, 2].map((i) => signEd25519(signer.privateKey, message(i)));
  for (const [i, s] of sigs.entries()) memo.verify(signer.publicKey, message(i), s);
  assert.equal(memo.size, 2);
  assert.equal(memo.known(signer.publicKey, message(0), sigs[0]!), undefined);
  assert.equal(memo.known(signer.publicKey, message(2), sigs[2]!), true);
  memo.verify(signer.publicKey.subarray(0, 31), message(0), sigs[0]!);
  memo.verify(signer.publicKey, message(0), sigs[0]!.subarray(0, 63));
  assert.equal(memo.known(signer.publicKey, message(2), sigs[2]!), true, "still there");
  assert.throws(() => new VerifiedSignatures(0), /positive integer, got 0/);
});
