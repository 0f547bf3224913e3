import assert from "node:assert/strict";
import { test } from "node:test";
import { generateEd25519KeyPair, keyPairFromSeed, signEd25519 } from "../../src/crypto/ed25519-keys.js";
import { Ed25519Verifier, ed25519PublicKeyObject, verifyEd25519 } from "../../src/crypto/ed25519-verify.js";
import { KeyObjectCache } from "../../src/crypto/key-object-cache.js";

const message = new TextEncoder().encode("precommit for block 7");
const pair = keyPairFromSeed(new Uint8Array(32).fill(9));
const signature = signEd25519(pair.privateKey, message);

test("a valid signature verifies and a changed message or signature does not", () => {
  assert.equal(verifyEd25519(pair.publicKey, message, signature), true);
  const otherMessage = message.slice();
  otherMessage[0] ^= 1;
  assert.equal(verifyEd25519(pair.publicKey, otherMessage, signature), false);
  const badSignature = signature.slice();
  badSignature[10] ^= 0x40;
  assert.equal(verifyEd25519(pair.publicKey, message, badSignature), false);
  assert.equal(verifyEd25519(generateEd25519KeyPair().publicKey, message, signature), false);
});

test("wrong lengths are invalid, never an exception", () => {
  assert.equal(verifyEd25519(pair.publicKey.subarray(0, 31), message, signature), false);
  assert.equal(verifyEd25519(new Uint8Array(33), message, signature), false);
  assert.equal(verifyEd25519(pair.publicKey, message, signature.subarray(0, 63)), false);
  assert.equal(verifyEd25519(pair.publicKey, message, new Uint8Array([...signature, 0])), false);
  assert.equal(verifyEd25519(new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)), false);
  assert.equal(ed25519PublicKeyObject(new Uint8Array(31)), null);
});

test("keys given as views into a larger buffer verify like standalone copies", () => {
  const backing = new Uint8Array(200);
  backing.set(pair.publicKey, 5);
  backing.set(signature, 100);
  const key = backing.subarray(5, 37);
  const sig = backing.subarray(100, 164);
  assert.equal(new Ed25519Verifier().verify(key, message, sig), true);
});

test("an empty message signs and verifies", () => {
  const empty = new Uint8Array(0);
  assert.equal(verifyEd25519(pair.publicKey, empty, signEd25519(pair.privateKey, empty)), true);
});

test("the verifier's key cache never grows past its bound", () => {
  const verifier = new Ed25519Verifier(3);
  for (let i = 0; i < 10; i++) verifier.verify(generateEd25519KeyPair().publicKey, message, signature);
  assert.equal(verifier.cachedKeys, 3);
  // The cached key still gives the right answer after evictions.
  assert.equal(verifier.verify(pair.publicKey, message, signature), true);
  assert.equal(verifier.cachedKeys, 3);
});

test("the key cache evicts the least recently used key", () => {
  const built: string[] = [];
  const cache = new KeyObjectCache(2, (k) => {
    built.push(Buffer.from(k).toString("hex"));
    return ed25519PublicKeyObject(k);
  });
  const [a, b, c] = [1, 2, 3].map((n) => keyPairFromSeed(new Uint8Array(32).fill(n)).publicKey) as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  cache.get(a);
  cache.get(b);
  cache.get(a); // a is now the most recent; b is the oldest
  cache.get(c); // evicts b
  assert.equal(built.length, 3);
  cache.get(a);
  assert.equal(built.length, 3, "a stayed cached");
  cache.get(b);
  assert.equal(built.length, 4, "b was evicted and rebuilt");
});

test("a cache size that is not a positive integer is refused", () => {
  assert.throws(() => new KeyObjectCache(0, ed25519PublicKeyObject), RangeError);
  assert.throws(() => new Ed25519Verifier(1.5), RangeError);
});
