// The mempool logs' integer columns are typed arrays sized once per rebuild (entry-log.ts): a log
// rebuilt over a pool or a full cache has room for every entry it takes before its next rebuild
// when the size holds, so a steady turnover appends with no growth (no copy into fresh memory in
// the mempool's turns); past that room the columns double and every link survives the copy.
import assert from "node:assert/strict";
import { test } from "node:test";
import { TxCache } from "../../src/mempool/cache.js";
import { VersionedMap } from "../../src/mempool/versioned-map.js";

const hash = (i: number) => i.toString(16).toUpperCase().padStart(64, "0");

test("a pool of steady size appends into its rebuilt log's columns without growing them", () => {
  const size = 3000;
  let map = VersionedMap.empty<number>();
  let next = 0;
  for (; next < size; next++) map = map.set(hash(next), next);
  // Turn the pool over until its log has been rebuilt at least twice.
  let rebuilds = 0;
  let capacity = -1;
  let log = map.log;
  for (let step = 0; step < 6 * size + 4000; step++) {
    map = map.withMutations((d) => {
      d.delete(hash(next - size));
      d.set(hash(next), next);
    });
    next++;
    if (map.log !== log) {
      // A new log: rebuilt over `size` keys, with room for what it takes until the next rebuild.
      rebuilds++;
      log = map.log;
      capacity = log.capacity;
      assert.ok(capacity >= 2 * size + 1025, `a log rebuilt over ${size} keys has room for ${capacity}`);
    } else if (rebuilds > 0) {
      assert.equal(log.capacity, capacity, "a steady pool's log never grows between rebuilds");
    }
  }
  assert.ok(rebuilds >= 2, `${rebuilds} rebuilds`);
  assert.equal(map.size, size);
  assert.deepEqual(map.first(), next - size);
});

test("a full cache under turnover appends into its rebuilt log's columns without growing them", () => {
  const capacity = 2000;
  let cache = TxCache.EMPTY;
  let next = 0;
  for (; next < capacity; next++) cache = cache.push(hash(next), capacity);
  let rebuilds = 0;
  let room = -1;
  let log = cache.log;
  for (let step = 0; step < 12 * capacity + 4000; step++) {
    // Each tx pushed new (evicting the oldest), then refreshed, as admission then commit do.
    cache = cache.update(
      [
        [hash(next), true],
        [hash(next - 1), true],
      ],
      capacity,
    );
    next++;
    if (cache.log !== log) {
      rebuilds++;
      log = cache.log;
      room = log.capacity;
      assert.ok(room >= 4 * capacity + 1025, `a log rebuilt over ${capacity} hashes has room for ${room}`);
    } else if (rebuilds > 0) {
      assert.equal(log.capacity, room, "a full cache's log never grows between rebuilds");
    }
  }
  assert.ok(rebuilds >= 2, `${rebuilds} rebuilds`);
  assert.equal(cache.size, capacity);
  assert.ok(cache.has(hash(next - 1)) && !cache.has(hash(next - capacity - 1)));
});

test("a log grown far past its first room keeps every key's chain of entries", () => {
  // One draft appending 20,000 entries over 300 keys: its columns double from their first room
  // many times, and the draft reads every key as a model does all along.
  const model = new Map<string, number>();
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 12) % n;
  };
  const draft = VersionedMap.empty<number>().asMutable();
  for (let i = 0; i < 20_000; i++) {
    const key = hash(random(300));
    if (random(3) === 0) {
      draft.delete(key);
      model.delete(key);
    } else {
      draft.set(key, i);
      model.set(key, i);
    }
    if (i % 997 === 0) for (let k = 0; k < 300; k++) assert.equal(draft.get(hash(k)), model.get(hash(k)));
  }
  assert.ok(draft.log.keys.length > 10_000 && draft.log.capacity >= draft.log.keys.length);
  const map = draft.asImmutable();
  assert.deepEqual(new Map(map), model);
});
