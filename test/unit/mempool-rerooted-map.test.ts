// The rerooted map is persistent: over random sets and deletes, each edit applied to a random
// earlier version (a branch, as well as the newest), every version ever made still answers exactly
// what a plain Map copied at that point answers, read in random order (moving the shared Map
// back and forth between versions).
import assert from "node:assert/strict";
import { test } from "node:test";
import { RerootedMap } from "../../src/mempool/rerooted-map.js";

test("every version of a rerooted map keeps its own entries", () => {
  let seed = 5;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const versions: { map: RerootedMap<string, number>; model: Map<string, number> }[] = [
    { map: RerootedMap.empty(), model: new Map() },
  ];
  for (let step = 0; step < 3000; step++) {
    const from = random(3) === 0 ? versions[random(versions.length)]! : versions.at(-1)!;
    const key = `k${random(20)}`;
    const model = new Map(from.model);
    let map: RerootedMap<string, number>;
    if (random(3) === 0) {
      map = from.map.delete(key);
      model.delete(key);
    } else {
      map = from.map.set(key, step);
      model.set(key, step);
    }
    versions.push({ map, model });
    for (let probe = 0; probe < 3; probe++) {
      const v = versions[random(versions.length)]!;
      assert.equal(v.map.size, v.model.size, `step ${step}`);
      for (let k = 0; k < 20; k++) {
        assert.equal(v.map.get(`k${k}`), v.model.get(`k${k}`), `step ${step} key k${k}`);
        assert.equal(v.map.has(`k${k}`), v.model.has(`k${k}`));
      }
    }
  }
});

test("deleting an absent key returns the same version; undefined values are kept", () => {
  const a = RerootedMap.empty<string, number | undefined>().set("x", undefined);
  assert.equal(a.delete("y"), a);
  assert.ok(a.has("x"));
  const b = a.delete("x");
  assert.ok(!b.has("x"));
  assert.ok(a.has("x"), "the older version still has it");
  assert.equal(a.size, 1);
  assert.equal(b.size, 0);
});
