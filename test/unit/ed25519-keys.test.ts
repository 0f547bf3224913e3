import assert from "node:assert/strict";
import { createPublicKey, randomBytes, sign, verify } from "node:crypto";
import { test } from "node:test";
import * as noble from "@noble/ed25519";
import {
  generateEd25519KeyPair,
  keyPairFromPrivateKey,
  keyPairFromSeed,
  privateKeyObjectFromSeed,
  publicKeyFromSeed,
  signEd25519,
} from "../../src/crypto/ed25519-keys.js";
import { addressOf, sha256 } from "../../src/crypto/hash.js";

test("a seed derives the same public key as @noble/ed25519", async () => {
  const seed = new Uint8Array(32).map((_, i) => i * 7 + 1);
  const pair = keyPairFromSeed(seed);
  assert.deepEqual(pair.publicKey, await noble.getPublicKeyAsync(seed));
  assert.deepEqual(pair.privateKey.subarray(32), pair.publicKey);
});

test("derived public keys match RFC 8032's vector and @noble/ed25519 on random seeds", async () => {
  // RFC 8032 §7.1, test 1.
  const seed = Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex");
  const expected = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
  assert.equal(Buffer.from(publicKeyFromSeed(seed)).toString("hex"), expected);
  for (let i = 0; i < 32; i++) {
    const random = new Uint8Array(randomBytes(32));
    assert.deepEqual(publicKeyFromSeed(random), await noble.getPublicKeyAsync(random));
  }
});

test("a private KeyObject from a seed signs as its derived public key verifies", () => {
  const seed = new Uint8Array(randomBytes(32));
  const message = new TextEncoder().encode("rxbft");
  const signature = sign(null, message, privateKeyObjectFromSeed(seed));
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), publicKeyFromSeed(seed)]);
  assert.equal(
    verify(null, message, createPublicKey({ key: spki, format: "der", type: "spki" }), signature),
    true,
  );
  assert.throws(() => privateKeyObjectFromSeed(seed.subarray(1)), /seed must be 32 bytes, got 31/);
});

test("generated keys sign messages that node:crypto verifies", () => {
  const pair = generateEd25519KeyPair();
  const message = new TextEncoder().encode("rxbft");
  const signature = signEd25519(pair.privateKey, message);
  assert.equal(signature.length, 64);
  const spki = Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), pair.publicKey]);
  const key = createPublicKey({ key: spki, format: "der", type: "spki" });
  assert.equal(verify(null, message, key, signature), true);
});

test("a private key whose second half is not its public key is refused", () => {
  const pair = generateEd25519KeyPair();
  const broken = new Uint8Array(pair.privateKey);
  broken[40] ^= 1;
  assert.match(keyPairFromPrivateKey(broken) as string, /not the public key of its seed/);
  assert.match(keyPairFromPrivateKey(broken.subarray(0, 10)) as string, /must be 64 bytes/);
});

test("an address is the first 20 bytes of sha256 of the key", () => {
  const key = new Uint8Array(32).fill(9);
  assert.deepEqual(addressOf(key), sha256(key).subarray(0, 20));
  assert.equal(addressOf(key).length, 20);
});
