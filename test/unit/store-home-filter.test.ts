// The tx index's home filter (src/store/indexer/home-filter.ts): never "absent" for a key added,
// "absent" for most keys never added, at about the rate its formula says, grown part by part with
// its keys up to its cap, crowded only at the cap, and a clear error for a size or a key it cannot
// take.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  HOME_FILTER_CROWDED_RATE,
  HOME_FILTER_FIRST_PART_BYTES,
  HOME_FILTER_PART_RATE,
  HomeFilter,
  homeFilterKeysAtRate,
  homeFilterPartSizes,
} from "../../src/store/indexer/home-filter.js";

const hashOf = (n: number): Uint8Array => createHash("sha256").update(`tx ${n}`).digest();

/** murmur3's 32-bit finaliser: uniform bits from a counter, for the tests that add a million keys. */
function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
/** A home key's 8 bytes for key number `n`, cheaper than a SHA-256. */
function keyOf(n: number): Uint8Array {
  const key = new Uint8Array(8);
  const view = new DataView(key.buffer);
  view.setUint32(0, mix(n));
  view.setUint32(4, mix(n ^ 0x5bd1e995));
  return key;
}

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

const KB = 1024;
const MB = 1024 * KB;

test("the parts double from 256 KB and the last takes the rest of the cap", () => {
  assert.deepEqual(homeFilterPartSizes(64), [64]);
  assert.deepEqual(homeFilterPartSizes(300 * KB), [300 * KB], "under three first parts: one part");
  assert.deepEqual(homeFilterPartSizes(MB), [256 * KB, 768 * KB]);
  assert.deepEqual(
    homeFilterPartSizes(16 * MB).map((b) => b / KB),
    [256, 512, 1024, 2048, 4096, 8448],
  );
  for (const cap of [1, 7, 100_000, MB, 16 * MB, 17 * MB + 3, 256 * MB]) {
    const sizes = homeFilterPartSizes(cap);
    assert.equal(
      sizes.reduce((a, b) => a + b, 0),
      cap,
      `${cap}: the parts add up to the cap`,
    );
    for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i]! >= sizes[i - 1]!, `${cap}: never smaller`);
  }
});

/** Adds keys from `from` until the filter has `parts` parts; returns the next key's number. */
function addUntilParts(filter: HomeFilter, parts: number, from = 0): number {
  let n = from;
  while (filter.parts < parts) {
    if (n - from > 2_000_000) assert.fail(`still ${filter.parts} parts after ${n - from} keys`);
    filter.add(keyOf(n++));
  }
  return n;
}

test("it grows a part when the newest holds the keys of its part rate, and keeps every key", () => {
  const filter = new HomeFilter(MB); // 256 KB, then 768 KB
  assert.equal(filter.parts, 1);
  assert.equal(filter.bytes, HOME_FILTER_FIRST_PART_BYTES, "only the first part is allocated");
  const firstHolds = homeFilterKeysAtRate(HOME_FILTER_FIRST_PART_BYTES * 8, HOME_FILTER_PART_RATE);
  assert.equal(firstHolds, 102_659, "~20.4 bits a key");
  for (let n = 0; n < firstHolds - 1; n++) filter.add(keyOf(n));
  assert.equal(filter.parts, 1, "one key short");
  filter.add(keyOf(firstHolds - 1));
  assert.equal(filter.parts, 2, "the add that fills the first part makes the second");
  assert.equal(filter.bytes, MB);
  assert.equal(filter.capBytes, MB);
  for (let n = firstHolds; n < firstHolds + 50_000; n++) filter.add(keyOf(n));
  assert.equal(filter.parts, 2, "no part past the cap");
  for (let n = 0; n < firstHolds + 50_000; n += 7) assert.equal(filter.mayHold(keyOf(n)), true, `key ${n}`);
});

test("its false positives stay near the formula's at each size, under the parts' sum while it grows", () => {
  const filter = new HomeFilter(4 * MB); // 256, 512 KB, then 3.25 MB
  const absent = 200_000;
  const countMaybe = () => {
    let maybe = 0;
    for (let n = 10_000_000; n < 10_000_000 + absent; n++) if (filter.mayHold(keyOf(n))) maybe++;
    return maybe / absent;
  };
  let next = 0;
  for (const parts of [2, 3]) {
    next = addUntilParts(filter, parts, next);
    const expected = filter.falsePositiveRate();
    assert.ok(expected <= HOME_FILTER_PART_RATE * (parts - 1) * 1.01, `${parts} parts: expected ${expected}`);
    const seen = countMaybe();
    assert.ok(
      Math.abs(seen - expected) < expected * 0.35 + 0.0002,
      `${parts} parts: ${seen} seen, ${expected} expected`,
    );
  }
});

test("it is crowded only at its cap: the last part fills until the whole filter's rate is 5 %", () => {
  let told = 0;
  const filter = new HomeFilter(MB, () => told++);
  let n = addUntilParts(filter, 2);
  const firstRate = filter.falsePositiveRate();
  // The last part (768 KB) is crowded where it alone reaches 1 − 0.95 / (1 − the first's rate).
  const lastHolds = homeFilterKeysAtRate(768 * KB * 8, 1 - (1 - HOME_FILTER_CROWDED_RATE) / (1 - firstRate));
  const crowdedAt = n + lastHolds;
  for (; n < crowdedAt - 1; n++) filter.add(keyOf(n));
  assert.equal(told, 0);
  assert.ok(filter.falsePositiveRate() < HOME_FILTER_CROWDED_RATE, `rate ${filter.falsePositiveRate()}`);
  filter.add(keyOf(n++));
  assert.equal(told, 1, `crowded at ${filter.added} keys`);
  assert.ok(Math.abs(filter.falsePositiveRate() - HOME_FILTER_CROWDED_RATE) < 1e-6);
  for (let i = 0; i < 1000; i++) filter.add(keyOf(n++));
  assert.equal(told, 1, "said once");
  assert.equal(filter.parts, 2);
});

test("the default 16 MB cap: ~3.75 MB at 1M keys, the cap at 4M, crowded at about 13.9M keys", () => {
  // The part sizes and their rates say it without adding millions of keys.
  const sizes = homeFilterPartSizes(16 * MB);
  const holds = sizes.slice(0, -1).map((b) => homeFilterKeysAtRate(b * 8, HOME_FILTER_PART_RATE));
  const before = (parts: number) => holds.slice(0, parts).reduce((a, b) => a + b, 0);
  assert.ok(before(3) < 1_000_000 && before(4) > 1_000_000, "1M keys are in the fourth part: 3.75 MB");
  assert.ok(before(5) < 4_000_000 && before(5) > 3_000_000, "the last part is made before 4M keys");
  let none = 1;
  for (let i = 0; i < sizes.length - 1; i++) none *= 1 - HOME_FILTER_PART_RATE;
  const last = homeFilterKeysAtRate(sizes.at(-1)! * 8, 1 - (1 - HOME_FILTER_CROWDED_RATE) / none);
  const crowded = before(5) + last;
  assert.ok(crowded > 13_500_000 && crowded < 14_300_000, `${crowded}`);
});
