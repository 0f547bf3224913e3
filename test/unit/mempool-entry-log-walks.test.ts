// Walking the mempool's logs (evicting the cache's oldest hashes, rebuilding a log, iterating the
// pool in order) tells a key's last entry by the entries' links, not by a lookup of the key in the
// log's table of positions: each such lookup of a 64-digit hash among tens of thousands is a cache
// miss, paid once per entry walked, on top of the one lookup each edit needs.
import assert from "node:assert/strict";
import { test } from "node:test";
import { TxCache } from "../../src/mempool/cache.js";
import { KeyPositions } from "../../src/mempool/key-positions.js";
import { VersionedMap } from "../../src/mempool/versioned-map.js";

const hash = (i: number) => i.toString(16).toUpperCase().padStart(64, "0");

/** Lookups of a key's position in a log while `run` runs. */
function mapGets(run: () => void): number {
  const get = KeyPositions.prototype.get;
  let count = 0;
  KeyPositions.prototype.get = function (this: KeyPositions, key: string) {
    count++;
    return get.call(this, key);
  };
  try {
    run();
  } finally {
    KeyPositions.prototype.get = get;
  }
  return count;
}

test("a push into a full cache looks its hash up once, whatever it evicts or rebuilds", () => {
  let cache = TxCache.EMPTY;
  for (let i = 0; i < 100; i++) cache = cache.push(hash(i), 100);
  const draft = cache.edit();
  // 3,000 pushes over a capacity of 100: each evicts one hash
  const gets = mapGets(() => {
    for (let i = 100; i < 3100; i++) draft.push(hash(i), 100);
  });
  assert.equal(gets, 3000);
  const done = mapGets(() => {
    cache = draft.done(); // its log is rebuilt: 3,100 entries for 100 hashes
  });
  assert.equal(done, 0);
  assert.ok(cache.retainedEntries <= 100 + 1024 + 100);
  assert.deepEqual(
    cache.keySeq().toArray(),
    Array.from({ length: 100 }, (_, i) => hash(3000 + i)),
  );
});

test("iterating a pool in order looks no key up, its dead entries and re-set keys included", () => {
  let pool = VersionedMap.empty<number>();
  for (let i = 0; i < 500; i++) pool = pool.set(hash(i), i);
  pool = pool.withMutations((m) => {
    for (let i = 0; i < 400; i++) m.delete(hash(i));
    m.set(hash(450), -450); // a new value keeps its place
    m.set(hash(3), 3); // a deleted key set again goes last
  });
  let values: number[] = [];
  const gets = mapGets(() => {
    values = pool.toValueArray();
  });
  assert.equal(gets, 0);
  const expected = Array.from({ length: 100 }, (_, i) => (i === 50 ? -450 : 400 + i));
  assert.deepEqual(values, [...expected, 3]);
});
