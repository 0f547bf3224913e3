// The tx cache against a plain Map used as an LRU (insertion order, refresh = delete + set), over
// random pushes and removes at small capacities, checking every step and that old versions stay.
import assert from "node:assert/strict";
import { test } from "node:test";
import { REBUILT_PAST, TxCache } from "../../src/mempool/cache.js";

test("the tx cache behaves as an LRU and is persistent", () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (const capacity of [1, 2, 3, 10, 100]) {
    let cache = TxCache.EMPTY;
    const model = new Map<string, true>();
    for (let step = 0; step < 5000; step++) {
      const hash = `H${random(capacity * 3)}`;
      const before = cache;
      const beforeKeys = before.keySeq().toArray();
      if (random(4) === 0) {
        cache = cache.remove(hash);
        model.delete(hash);
      } else {
        cache = cache.push(hash, capacity);
        model.delete(hash);
        model.set(hash, true);
        while (model.size > capacity) model.delete(model.keys().next().value!);
      }
      assert.deepEqual(cache.keySeq().toArray(), [...model.keys()], `capacity ${capacity}, step ${step}`);
      assert.equal(cache.size, model.size);
      for (const key of model.keys()) assert.ok(cache.has(key));
      assert.deepEqual(before.keySeq().toArray(), beforeKeys, "an older version is unchanged");
    }
    assert.equal(cache.clear().size, 0);
  }
});

test("a batch of pushes and removes gives the same cache as applying them one by one", () => {
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (const capacity of [0, 1, 2, 5, 50]) {
    let one = TxCache.EMPTY;
    let batched = TxCache.EMPTY;
    for (let round = 0; round < 300; round++) {
      const changes: [string, boolean][] = [];
      for (let i = random(capacity * 2 + 3); i > 0; i--)
        changes.push([`H${random(capacity * 3 + 2)}`, random(3) !== 0]);
      const before = batched;
      const beforeKeys = before.keySeq().toArray();
      for (const [hash, push] of changes) one = push ? one.push(hash, capacity) : one.remove(hash);
      batched = batched.update(changes, capacity);
      assert.deepEqual(
        batched.keySeq().toArray(),
        one.keySeq().toArray(),
        `capacity ${capacity}, round ${round}`,
      );
      assert.equal(batched.size, one.size);
      for (const hash of one.keySeq()) assert.ok(batched.has(hash));
      assert.deepEqual(before.keySeq().toArray(), beforeKeys, "the cache before the batch is unchanged");
    }
  }
});

test("versions of one cache edited on two branches, and drafts alive at once, each read as their own LRU", () => {
  const hashes = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
  let base = TxCache.EMPTY;
  for (const h of hashes(5, "B")) base = base.push(h, 8);
  // two branches of the same version: the second appends after the first did
  const left = base.push("L", 8).remove("B0");
  const right = base.push("R", 8).push("B1", 8);
  assert.deepEqual(base.keySeq().toArray(), ["B0", "B1", "B2", "B3", "B4"]);
  assert.deepEqual(left.keySeq().toArray(), ["B1", "B2", "B3", "B4", "L"]);
  assert.deepEqual(right.keySeq().toArray(), ["B0", "B2", "B3", "B4", "R", "B1"]);
  assert.ok(!right.has("L") && !left.has("R") && left.has("B1") && !left.has("B0"));
  // two drafts of one version alive at once
  const a = right.edit();
  const b = right.edit();
  a.push("A", 8);
  b.push("X", 8);
  a.remove("B0");
  b.push("Y", 8);
  assert.ok(a.has("A") && !a.has("X") && !a.has("B0"));
  assert.ok(b.has("X") && b.has("Y") && !b.has("A") && b.has("B0"));
  assert.deepEqual(a.done().keySeq().toArray(), ["B2", "B3", "B4", "R", "B1", "A"]);
  assert.deepEqual(b.done().keySeq().toArray(), ["B0", "B2", "B3", "B4", "R", "B1", "X", "Y"]);
  assert.deepEqual(
    right.keySeq().toArray(),
    ["B0", "B2", "B3", "B4", "R", "B1"],
    "the version they came from",
  );
});

test("the memory a cache holds stays within a bound of its capacity, old versions read unchanged", () => {
  const capacity = 1000;
  let cache = TxCache.EMPTY;
  const kept: { cache: TxCache; keys: string[] }[] = [];
  let most = 0;
  for (let i = 0; i < 50_000; i++) {
    cache = i % 7 === 3 ? cache.remove(`H${i - 2}`) : cache.push(`H${i}`, capacity);
    if (i % 5000 === 0) kept.push({ cache, keys: cache.keySeq().toArray() });
    most = Math.max(most, cache.retainedEntries);
  }
  assert.equal(cache.size, capacity);
  assert.ok(most <= REBUILT_PAST * capacity + 1025, `a log held ${most} entries at capacity ${capacity}`);
  for (const { cache: old, keys } of kept) assert.deepEqual(old.keySeq().toArray(), keys);
});

test("pushWasLive pushes as push does and answers what has answered before it", () => {
  let seed = 5;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 12) % n;
  };
  for (const capacity of [0, 1, 3, 40]) {
    let viaPush = TxCache.EMPTY;
    let viaWasLive = TxCache.EMPTY;
    for (let step = 0; step < 2000; step++) {
      const hash = `H${random(60)}`;
      if (random(5) === 0) {
        viaPush = viaPush.remove(hash);
        viaWasLive = viaWasLive.remove(hash);
        continue;
      }
      const had = viaPush.has(hash);
      viaPush = viaPush.push(hash, capacity);
      const draft = viaWasLive.edit();
      assert.equal(draft.pushWasLive(hash, capacity), had);
      viaWasLive = draft.done();
      assert.deepEqual(viaWasLive.keySeq().toArray(), viaPush.keySeq().toArray());
    }
  }
});
