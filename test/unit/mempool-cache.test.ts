// The tx cache against a plain Map used as an LRU (insertion order, refresh = delete + set), over
// random pushes and removes at small capacities, checking every step and that old versions stay.
import assert from "node:assert/strict";
import { test } from "node:test";
import { TxCache } from "../../src/mempool/cache.js";

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
