// A height's txs grouped by their homes' key (the hash's first 8 bytes): hashes whose first 30 bits
// agree but whose prefixes differ are apart, hashes whose 8-byte prefixes agree are together, and
// groups come in the order their first tx came.
import assert from "node:assert/strict";
import { test } from "node:test";
import { HomeGroups } from "../../src/store/indexer/home-groups.js";

const hash = (...head: number[]): Uint8Array => {
  const out = new Uint8Array(32).fill(0xee);
  out.set(head, 0);
  return out;
};

test("txs are grouped by the first 8 bytes of their hash, not by the number that finds them", () => {
  const hashes = [
    hash(1, 2, 3, 4, 5, 6, 7, 8), // group 0
    hash(1, 2, 3, 5, 5, 6, 7, 8), // same first 30 bits (the last two bits of byte 3 differ): group 1
    hash(1, 2, 3, 4, 5, 6, 7, 9), // same 30 bits, another byte 7: group 2
    hash(1, 2, 3, 4, 5, 6, 7, 8, 0xaa), // the prefix of the first, another hash: group 0
    hash(9, 9, 9, 9, 9, 9, 9, 9), // group 3
    hash(1, 2, 3, 5, 5, 6, 7, 8), // the second's prefix: group 1
  ];
  const groups = new HomeGroups(hashes);
  for (let i = 0; i < hashes.length; i++) groups.groupOf(i).push(i);
  assert.deepEqual(groups.groups, [[0, 3], [1, 5], [2], [4]]);
});

test("random hashes: the groups are those of a map keyed by the 8-byte prefix", () => {
  let seed = 7;
  const byte = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 16) & 0xff;
  };
  // Few distinct bytes so that prefixes and 30-bit numbers collide often.
  const hashes = Array.from({ length: 3000 }, () => {
    const h = new Uint8Array(32);
    for (let i = 0; i < 32; i++) h[i] = byte() & (i < 8 ? 0x81 : 0xff);
    return h;
  });
  const groups = new HomeGroups(hashes);
  const model = new Map<string, number[]>();
  hashes.forEach((h, i) => {
    groups.groupOf(i).push(i);
    const id = Buffer.from(h.subarray(0, 8)).toString("hex");
    model.set(id, [...(model.get(id) ?? []), i]);
  });
  assert.deepEqual(groups.groups, [...model.values()]);
});
