// The mempool logs' table of each key's last position against a plain JS Map: random keys of every
// kind the logs hold (64-digit hex tx hashes, short test keys), keys whose hashes collide in full,
// growth from the smallest table, and a table sized ahead for a rebuilt log.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { KeyPositions, keyHash } from "../../src/mempool/key-positions.js";

function randomFrom(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 8) % n; // the low bits of this generator cycle fast
  };
}

/** Appends `key` at the log's end and records it, as EntryLog.appendKey does. */
function append(keys: string[], table: KeyPositions, model: Map<string, number>, key: string): void {
  const at = keys.length;
  keys.push(key);
  table.set(key, at);
  model.set(key, at);
}

function assertSame(table: KeyPositions, model: Map<string, number>, asked: readonly string[]): void {
  assert.equal(table.size, model.size);
  for (const key of asked) assert.equal(table.get(key), model.get(key) ?? -1, `position of ${key}`);
}

/** A tx hash as the mempool keys it: upper-case hex sha256. */
const hexOf = (random: (n: number) => number) =>
  createHash("sha256")
    .update(String(random(1 << 22)))
    .digest("hex")
    .toUpperCase();

test("positions read as a Map's after every append, for hex hashes and short keys alike", () => {
  const random = randomFrom(7);
  for (const distinct of [1, 5, 300, 5000]) {
    const hexes = Array.from({ length: distinct }, () => hexOf(random));
    const keys: string[] = [];
    const table = new KeyPositions(keys);
    const model = new Map<string, number>();
    for (let step = 0; step < 4 * distinct + 50; step++) {
      // a key set again is a fresh string of the same characters, as a block's tx hashes are
      const key = random(4) === 0 ? `K${random(distinct)}` : hexes[random(distinct)]!.slice(0);
      append(keys, table, model, key);
      if (step % 97 === 0) assertSame(table, model, [...model.keys(), hexOf(random), "absent"]);
    }
    assertSame(table, model, [...model.keys(), ...hexes, "K-1", ""]);
  }
});

test("keys whose hashes collide in full are still told apart, and absent ones stay absent", () => {
  // the hash reads a long key's first and last 8 characters: these differ only between them
  const collide = (i: number) => `ABCDEF01${i.toString(16).padStart(48, "0")}23456789`;
  assert.equal(keyHash(collide(1)), keyHash(collide(2)));
  const keys: string[] = [];
  const table = new KeyPositions(keys);
  const model = new Map<string, number>();
  for (let i = 0; i < 600; i++) append(keys, table, model, collide(i % 400));
  assertSame(table, model, [...model.keys(), collide(400), collide(9999)]);
});

test("a table sized ahead for a rebuilt log answers as one grown from empty", () => {
  const random = randomFrom(11);
  const hexes = Array.from({ length: 3000 }, () => hexOf(random));
  const grownKeys: string[] = [];
  const sizedKeys: string[] = [];
  const grown = new KeyPositions(grownKeys);
  const sized = new KeyPositions(sizedKeys, hexes.length);
  const model = new Map<string, number>();
  for (const hex of hexes) {
    append(grownKeys, grown, model, hex);
    sizedKeys.push(hex);
    sized.set(hex, sizedKeys.length - 1);
  }
  assertSame(grown, model, hexes);
  assertSame(sized, model, hexes);
});
