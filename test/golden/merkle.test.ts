// Merkle roots against reference §10.4 (tree_test.go and the RFC 6962 checks).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { innerHash, leafHash, merkleProofs, merkleRoot } from "../../src/crypto/merkle.js";
import { MerkleProofError, verifyMerkleProof } from "../../src/crypto/merkle-proof.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const h = (s: string) => Uint8Array.from(Buffer.from(s, "hex"));
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("merkle root (reference §10.4)", () => {
  const cases: [string, Uint8Array[], string][] = [
    ["empty list", [], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["[010203]", [h("010203")], "054edec1d0211f624fed0cbca9d4f9400b0e491c43742af2c5b0abebf0c990d8"],
    ["[empty]", [new Uint8Array(0)], "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"],
    [
      "two items",
      [h("010203"), h("040506")],
      "82e6cfce00453804379b53962939eaa7906b39904be0813fcadd31b100773c4b",
    ],
    [
      "five items",
      [h("0102"), h("0304"), h("0506"), h("0708"), h("090a")],
      "f326493eceab4f2d9ffbc78c59432a0a005d6ea98392045c74df5d14a113be18",
    ],
  ];
  for (const [name, items, expected] of cases) {
    it(name, () => {
      assert.equal(hex(merkleRoot(items)), expected);
      assert.equal(hex(merkleProofs(items).root), expected);
    });
  }

  it("RFC 6962 leaf and inner node", () => {
    assert.equal(
      hex(leafHash(utf8("L123456"))),
      "395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56",
    );
    assert.equal(
      hex(innerHash(utf8("N123"), utf8("N456"))),
      "aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb",
    );
  });

  it("splits 5 leaves as 4 + 1 (recursive RFC 6962 shape, not neighbour pairing)", () => {
    const items = [h("0102"), h("0304"), h("0506"), h("0708"), h("090a")];
    const l = items.map(leafHash);
    const four = innerHash(innerHash(l[0]!, l[1]!), innerHash(l[2]!, l[3]!));
    assert.equal(hex(merkleRoot(items)), hex(innerHash(four, l[4]!)));
  });

  it("proofs of the five-item tree verify, and the last one has a single aunt", () => {
    const items = [h("0102"), h("0304"), h("0506"), h("0708"), h("090a")];
    const { root, proofs } = merkleProofs(items);
    for (const [i, p] of proofs.entries()) verifyMerkleProof(p, root, items[i]!);
    assert.equal(proofs[4]!.aunts.length, 1);
    assert.equal(proofs[0]!.aunts.length, 3);
    assert.throws(() => verifyMerkleProof(proofs[0]!, root, items[1]!), MerkleProofError);
  });
});
