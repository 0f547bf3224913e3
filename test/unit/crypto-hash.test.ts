// src/crypto/hash.ts is the one sha256 of the code base (tx, header and merkle hashes go through
// it): known vectors on both of its forms, results are plain Uint8Arrays that share no memory, and
// merkle's scratch path and its large-input path give the same leaf and inner hashes.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { addressOf, sha256, sha256OfParts } from "../../src/crypto/hash.js";
import { innerHash, leafHash } from "../../src/crypto/merkle.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const reference = (...parts: Uint8Array[]) => {
  const h = createHash("sha256");
  for (const p of parts) h.update(p);
  return hex(h.digest());
};

describe("sha256 (src/crypto/hash.ts)", () => {
  it("hashes the empty input and 'abc' to the FIPS 180-2 values", () => {
    assert.equal(
      hex(sha256(new Uint8Array(0))),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    assert.equal(
      hex(sha256(new TextEncoder().encode("abc"))),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("gives a plain Uint8Array of 32 bytes, a new one each call", () => {
    const a = sha256(Uint8Array.of(1));
    const b = sha256(Uint8Array.of(1));
    assert.equal(Object.getPrototypeOf(a), Uint8Array.prototype);
    assert.equal(a.length, 32);
    assert.notEqual(a.buffer, b.buffer);
    a[0] = a[0]! ^ 0xff;
    assert.notEqual(a[0], b[0]);
  });

  it("hashes parts as their concatenation", () => {
    const parts = [Uint8Array.of(1), new Uint8Array(5000).fill(7), new Uint8Array(0), Uint8Array.of(9, 9)];
    assert.equal(hex(sha256OfParts(...parts)), reference(...parts));
    assert.equal(Object.getPrototypeOf(sha256OfParts(...parts)), Uint8Array.prototype);
  });

  it("gives an address as the first 20 bytes of the key's sha256", () => {
    const key = new Uint8Array(32).fill(3);
    assert.equal(hex(addressOf(key)), reference(key).slice(0, 40));
  });
});

describe("merkle leaf and inner hashes through sha256", () => {
  for (const size of [0, 31, 4096, 4097, 10_000]) {
    it(`leaf of ${size} bytes is sha256(0x00 ‖ leaf)`, () => {
      const leaf = new Uint8Array(size).fill(size & 0xff);
      assert.equal(hex(leafHash(leaf)), reference(Uint8Array.of(0), leaf));
    });
  }
  for (const [l, r] of [
    [32, 32],
    [2048, 2048],
    [4000, 200],
  ] as const) {
    it(`inner node of ${l}+${r} bytes is sha256(0x01 ‖ left ‖ right)`, () => {
      const left = new Uint8Array(l).fill(1);
      const right = new Uint8Array(r).fill(2);
      assert.equal(hex(innerHash(left, right)), reference(Uint8Array.of(1), left, right));
    });
  }
});
