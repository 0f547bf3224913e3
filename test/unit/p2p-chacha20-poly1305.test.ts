// The secret connection's WebAssembly ChaCha20-Poly1305 against node:crypto's (the RFC 8439 AEAD
// both implement): the same sealed bytes for random keys, nonces and texts, every one opened back,
// and any altered byte, nonce or key refused.
import assert from "node:assert/strict";
import { createCipheriv, randomBytes } from "node:crypto";
import { test } from "node:test";
import { ChaCha20Poly1305 } from "../../src/p2p/secret-connection/chacha20-poly1305.js";

const TEXT = 1028;

function nodeSeal(key: Uint8Array, nonce: Uint8Array, text: Uint8Array): Buffer {
  const cipher = createCipheriv("chacha20-poly1305", key, nonce, { authTagLength: 16 });
  const body = cipher.update(text);
  cipher.final();
  return Buffer.concat([body, cipher.getAuthTag()]);
}

test("seals as node:crypto does, and opens what it sealed, key after key and nonce after nonce", () => {
  for (let k = 0; k < 8; k++) {
    const key = randomBytes(32);
    const cipher = new ChaCha20Poly1305(key, TEXT);
    for (let i = 0; i < 50; i++) {
      const nonce = randomBytes(12);
      const text = randomBytes(TEXT);
      const out = new Uint8Array(8 + TEXT + 16);
      cipher.seal(text, nonce, out, 8);
      const sealed = out.subarray(8);
      assert.deepEqual(Buffer.from(sealed), nodeSeal(key, nonce, text));
      const opened = cipher.open(sealed, nonce);
      assert.ok(opened !== undefined);
      assert.deepEqual(Buffer.from(opened), text);
      // its own buffer: a later open does not write into it
      cipher.open(Buffer.from(nodeSeal(key, nonce, randomBytes(TEXT))), nonce);
      assert.deepEqual(Buffer.from(opened), text);
    }
  }
});

test("refuses a frame with any byte altered, another nonce or another key", () => {
  const key = randomBytes(32);
  const cipher = new ChaCha20Poly1305(key, TEXT);
  const nonce = randomBytes(12);
  const sealed = nodeSeal(key, nonce, randomBytes(TEXT));
  for (const at of [0, 500, TEXT - 1, TEXT, TEXT + 15]) {
    const altered = Buffer.from(sealed);
    altered[at]! ^= 0x01;
    assert.equal(cipher.open(altered, nonce), undefined, `byte ${at} altered`);
  }
  const otherNonce = Buffer.from(nonce);
  otherNonce[4]! ^= 0x01;
  assert.equal(cipher.open(sealed, otherNonce), undefined);
  assert.equal(new ChaCha20Poly1305(randomBytes(32), TEXT).open(sealed, nonce), undefined);
  assert.ok(cipher.open(sealed, nonce) !== undefined);
});

test("takes only its key size and its text size", () => {
  assert.throws(() => new ChaCha20Poly1305(randomBytes(16), TEXT), /key is 16 bytes/);
  const cipher = new ChaCha20Poly1305(randomBytes(32), TEXT);
  assert.throws(
    () => cipher.seal(new Uint8Array(10), new Uint8Array(12), new Uint8Array(100), 0),
    /sealing 10/,
  );
  assert.throws(() => cipher.open(new Uint8Array(10), new Uint8Array(12)), /opening 10/);
});
