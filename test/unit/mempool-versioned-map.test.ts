// The mempool's persistent map (pool and running checks) against a plain JS Map, which keeps a key
// set again in its place as Immutable's OrderedMap does: random sets and deletes, every version
// kept and re-read, branches and two drafts of one version, and the bound on what a log holds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { VersionedMap } from "../../src/mempool/versioned-map.js";

function randomFrom(seed: number) {
  return (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
}

test("a VersionedMap reads as a JS Map after every edit, and every older version as it was", () => {
  const random = randomFrom(3);
  for (const keys of [1, 3, 20, 200]) {
    let map = VersionedMap.empty<number>();
    const model = new Map<string, number>();
    const versions: { map: VersionedMap<number>; entries: [string, number][] }[] = [];
    for (let step = 0; step < 4000; step++) {
      const key = `K${random(keys)}`;
      const op = random(5);
      if (op === 0) {
        map = map.delete(key);
        model.delete(key);
      } else if (op === 1) {
        // a batch in one draft: sets and deletes, read between edits
        const n = random(6);
        map = map.withMutations((d) => {
          for (let i = 0; i < n; i++) {
            const k = `K${random(keys)}`;
            if (random(3) === 0) {
              d.delete(k);
              model.delete(k);
            } else {
              d.set(k, step * 10 + i);
              model.set(k, step * 10 + i);
            }
            assert.equal(d.get(k), model.get(k));
            assert.equal(d.size, model.size);
          }
        });
      } else {
        map = map.set(key, step);
        model.set(key, step);
      }
      assert.deepEqual([...map], [...model], `keys ${keys}, step ${step}`);
      assert.equal(map.size, model.size);
      for (const [k, v] of model) assert.equal(map.get(k), v);
      if (step % 97 === 0) versions.push({ map, entries: [...model] });
    }
    for (const { map: old, entries } of versions) assert.deepEqual([...old], entries, "an older version");
    assert.equal(map.clear().size, 0);
  }
});

test("two branches of one version and two drafts alive at once each read as their own map", () => {
  const base = VersionedMap.empty<string>().set("a", "1").set("b", "2").set("c", "3");
  const left = base.set("b", "L").delete("a");
  const right = base.set("d", "R").set("a", "A");
  assert.deepEqual(
    [...base],
    [
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
    ],
  );
  assert.deepEqual(
    [...left],
    [
      ["b", "L"],
      ["c", "3"],
    ],
  );
  assert.deepEqual(
    [...right],
    [
      ["a", "A"],
      ["b", "2"],
      ["c", "3"],
      ["d", "R"],
    ],
  );
  assert.equal(right.first(), "A");
  const one = right.asMutable();
  const two = right.asMutable();
  one.set("e", "1");
  two.delete("a").set("f", "2");
  one.delete("b");
  assert.ok(one.has("e") && !one.has("f") && !one.has("b") && one.has("a"));
  assert.ok(two.has("f") && !two.has("e") && two.has("b") && !two.has("a"));
  assert.deepEqual([...one.asImmutable().keys()], ["a", "c", "d", "e"]);
  assert.deepEqual([...two.asImmutable().keys()], ["b", "c", "d", "f"]);
  assert.deepEqual([...right.keys()], ["a", "b", "c", "d"], "the version they came from");
});

test("a pool that turns over holds a log within a bound of its size", () => {
  let map = VersionedMap.empty<number>();
  let most = 0;
  for (let i = 0; i < 60_000; i++) {
    map = map.set(`T${i}`, i);
    if (i >= 2000) map = map.delete(`T${i - 2000}`);
    most = Math.max(most, map.retainedEntries);
  }
  assert.equal(map.size, 2000);
  assert.ok(most <= 2 * 2000 + 1025, `a log held ${most} entries for 2,000 keys`);
  assert.deepEqual(map.first(), 58_000);
});

test("take and setIfAbsent answer as get-then-delete and has-then-set, on owned and second drafts", () => {
  // The high bits of the generator: randomFrom's low bits cycle, which would pair each choice
  // below with the one before it.
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return (seed >>> 12) % n;
  };
  for (const keys of [1, 4, 50]) {
    let map = VersionedMap.empty<number>();
    const model = new Map<string, number>();
    for (let step = 0; step < 3000; step++) {
      const before = map;
      const beforeModel = new Map(model);
      // Every fourth batch edits a second draft of a version another draft has appended to.
      const second = random(4) === 0;
      if (second) before.withMutations((d) => d.set(`K${random(keys)}`, -1));
      map = before.withMutations((d) => {
        for (let i = random(5); i >= 0; i--) {
          const k = `K${random(keys)}`;
          if (random(2) === 0) {
            assert.equal(d.take(k), model.get(k));
            model.delete(k);
          } else {
            const absent = !model.has(k);
            assert.equal(d.setIfAbsent(k, step), absent);
            if (absent) model.set(k, step);
          }
          assert.equal(d.get(k), model.get(k));
          assert.equal(d.size, model.size);
        }
      });
      assert.deepEqual([...map], [...model]);
      assert.deepEqual([...before], [...beforeModel]);
    }
  }
});
