// The tx index's home filter (src/store/indexer/home-filter.ts): never "absent" for a key added,
// "absent" for most keys never added, at about the rate its formula says, and a clear error for a
// size or a key it cannot take.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  HOME_FILTER_CROWDED_RATE,
  HomeFilter,
  homeFilterKeysAtRate,
} from "../../src/store/indexer/home-filter.js";

const hashOf = (n: number): Uint8Array => createHash("sha256").update(`tx ${n}`).digest();

test("every key added may be held; keys never added are absent at about the expected rate", () => {
  const filter = new HomeFilter(4096); // 32,768 bits
  for (let n = 0; n < 3000; n++) filter.add(hashOf(n));
  for (let n = 0; n < 3000; n++) assert.equal(filter.mayHold(hashOf(n)), true, `key ${n} was added`);
  let maybe = 0;
  const absent = 20_000;
  for (let n = 1_000_000; n < 1_000_000 + absent; n++) if (filter.mayHold(hashOf(n))) maybe++;
  const expected = filter.falsePositiveRate(); // (1 − e^(−4·3000/32768))^4 ≈ 0.0098
  assert.ok(expected > 0.005 && expected < 0.02, `expected rate ${expected}`);
  assert.ok(
    maybe / absent < expected * 2 + 0.002,
    `${maybe} of ${absent} said maybe (expected ~${expected})`,
  );
  assert.equal(filter.added, 3000);
});

test("only the first 8 bytes of a hash count: a home key's hash bytes find what its tx's hash added", () => {
  const filter = new HomeFilter(64);
  const hash = hashOf(7);
  filter.add(hash);
  assert.equal(filter.mayHold(hash.subarray(0, 8)), true);
  const other = Uint8Array.from(hash);
  other[31] ^= 0xff; // same home key
  assert.equal(filter.mayHold(other), true);
});

test("an empty filter holds nothing, and it is incomplete until marked", () => {
  const filter = new HomeFilter(1);
  assert.equal(filter.mayHold(hashOf(1)), false);
  assert.equal(filter.complete, false);
  filter.markComplete();
  assert.equal(filter.complete, true);
  assert.equal(filter.falsePositiveRate(), 0);
});

test("a size that is not a whole number of bytes ≥ 1, or a key under 8 bytes, is refused by name", () => {
  for (const bytes of [0, -1, 1.5, Number.NaN])
    assert.throws(() => new HomeFilter(bytes), /home filter size .* is not a whole number of bytes/);
  assert.throws(() => new HomeFilter(8).add(new Uint8Array(7)), /needs 8 bytes of hash, got 7/);
});

test("it says it is crowded once, on the add that takes its false-positive rate to 5 %", () => {
  let told = 0;
  const filter = new HomeFilter(64, () => told++); // 512 bits
  const crowdedAt = homeFilterKeysAtRate(512, HOME_FILTER_CROWDED_RATE);
  assert.equal(crowdedAt, 82);
  for (let n = 0; n < crowdedAt - 1; n++) filter.add(hashOf(n));
  assert.equal(told, 0);
  assert.ok(filter.falsePositiveRate() < HOME_FILTER_CROWDED_RATE, `rate ${filter.falsePositiveRate()}`);
  filter.add(hashOf(crowdedAt));
  assert.equal(told, 1);
  assert.ok(filter.falsePositiveRate() >= HOME_FILTER_CROWDED_RATE);
  for (let n = 0; n < 200; n++) filter.add(hashOf(1000 + n));
  assert.equal(told, 1, "said once");
});

test("the default 16 MB filter is crowded at about 21.5M keys", () => {
  const keys = homeFilterKeysAtRate(16 * 1024 * 1024 * 8, HOME_FILTER_CROWDED_RATE);
  assert.ok(keys > 21_000_000 && keys < 22_000_000, `${keys}`);
});
