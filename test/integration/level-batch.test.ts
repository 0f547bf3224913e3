// LevelBatch over a real LevelDB: its writes go through the database's reusable native batch
// (native-batch.ts), not classic-level's array form, and land whole whichever path they take.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { nativeBatchOf, RETAIN_BYTES } from "../../src/level/native-batch.js";
import { type BinaryLevel, LevelBatch, openBinaryLevel } from "../../src/store/level-database.js";
import { countArrayWrites } from "./level-batch-fixture.js";

const root = mkdtempSync(join(tmpdir(), "level-batch-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;
const fresh = () => openBinaryLevel(join(root, `db${dbCount++}`));
const key = (i: number) => Uint8Array.of(7, i >>> 8, i & 0xff);
const value = (i: number) => Uint8Array.of(1, i & 0xff, 9);

async function contents(db: BinaryLevel): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, v] of db.iterator())
    out.push(`${Buffer.from(k).toString("hex")}=${Buffer.from(v).toString("hex")}`);
  return out;
}

describe("LevelBatch", () => {
  it("writes puts and deletes in order through the native batch, not the array form", async () => {
    const db = await fresh();
    assert.ok(nativeBatchOf(db), "classic-level's binding offers the native batch");
    const arrays = countArrayWrites(db);
    const first = new LevelBatch(db);
    for (let i = 0; i < 300; i++) first.put(key(i), value(i));
    await first.write();
    const second = new LevelBatch(db);
    second.del(key(0)).put(key(1), value(200)).del(key(2)).put(key(2), value(77));
    await second.write({ sync: true });
    const stored = await contents(db);
    assert.equal(stored.length, 299);
    assert.equal(stored[0], `070001=${Buffer.from(value(200)).toString("hex")}`);
    assert.equal(stored[1], `070002=${Buffer.from(value(77)).toString("hex")}`);
    assert.equal(arrays.count, 0, "no write took the array form");
    await db.close();
  });

  it("a write while another is under way takes the array form, and both land", async () => {
    const db = await fresh();
    const arrays = countArrayWrites(db);
    const a = new LevelBatch(db).put(key(1), value(1)).put(key(2), value(2));
    const b = new LevelBatch(db).put(key(3), value(3)).del(key(9));
    await Promise.all([a.write(), b.write()]);
    assert.equal(arrays.count, 1);
    assert.equal((await contents(db)).length, 3);
    // The native batch is free again, and cleared: a third write holds only its own operations.
    await new LevelBatch(db).del(key(1)).write();
    assert.equal(arrays.count, 1);
    assert.deepEqual(
      (await contents(db)).map((e) => e.slice(0, 6)),
      ["070002", "070003"],
    );
    await db.close();
  });

  it("a batch bigger than RETAIN_BYTES is written whole, and the next write still works", async () => {
    const db = await fresh();
    const big = new LevelBatch(db);
    const chunk = new Uint8Array(1024 * 1024).fill(5);
    for (let i = 0; i * chunk.length <= RETAIN_BYTES; i++) big.put(key(i), chunk);
    await big.write();
    await new LevelBatch(db).put(key(999), value(1)).write();
    assert.equal((await contents(db)).length, RETAIN_BYTES / chunk.length + 2);
    await db.close();
  });

  it("with copies, keys built in one reused buffer land as they were at each put", async () => {
    const db = await fresh();
    const reused = new Uint8Array(3);
    const fill = (i: number) => {
      reused.set(key(i));
      return reused;
    };
    // Filled straight into the native batch.
    const direct = new LevelBatch(db, { copies: true });
    for (let i = 0; i < 50; i++) direct.put(fill(i), value(i));
    // Begun while the native batch is taken: JS copies, then the array form.
    const copied = new LevelBatch(db, { copies: true });
    for (let i = 50; i < 100; i++) copied.put(fill(i), value(i));
    copied.del(fill(0));
    // One after the other: two writes in flight run on separate pool threads in either order,
    // and the del of key 0 below must land after the put it undoes.
    await direct.write();
    await copied.write();
    const stored = await contents(db);
    assert.equal(stored.length, 99);
    assert.deepEqual(
      stored.slice(0, 2).map((e) => e.slice(0, 6)),
      ["070001", "070002"],
    );
    await db.close();
  });

  it("an abandoned batch writes nothing and frees the native batch", async () => {
    const db = await fresh();
    const arrays = countArrayWrites(db);
    const dropped = new LevelBatch(db, { copies: true }).put(key(1), value(1));
    dropped.abandon();
    await new LevelBatch(db, { copies: true }).put(key(2), value(2)).write();
    assert.deepEqual(
      (await contents(db)).map((e) => e.slice(0, 6)),
      ["070002"],
    );
    assert.equal(arrays.count, 0, "the second batch had the native batch to itself");
    await db.close();
  });

  it("the native batch is let go once no write came for a while, and made again by the next", async () => {
    const db = await fresh();
    const native = nativeBatchOf(db, 600)!;
    const first = performance.now();
    await new LevelBatch(db).put(key(1), value(1)).write();
    assert.equal(native.retained, true, "kept for the next write");
    await new Promise((r) => setTimeout(r, 300));
    await new LevelBatch(db).put(key(2), value(2)).write();
    const second = performance.now();
    await new Promise((r) => setTimeout(r, 400));
    // Past the first write's 600 ms; only checkable while still inside the second's (a machine
    // that stalled the test longer cannot tell a restarted wait from none).
    const now = performance.now();
    if (now - first > 600 && now - second < 550)
      assert.equal(native.retained, true, "each write restarts the wait");
    await new Promise((r) => setTimeout(r, 800));
    assert.equal(native.retained, false, "let go after 600 ms without a write");
    await new LevelBatch(db).put(key(3), value(3)).write();
    assert.equal(native.retained, true);
    assert.equal((await contents(db)).length, 3);
    await db.close();
  });

  it("a batch filled while its database closes rejects instead of reaching LevelDB", async () => {
    const db = await fresh();
    const batch = new LevelBatch(db, { copies: true }).put(key(1), value(1));
    await db.close();
    await assert.rejects(batch.write(), /not open/);
  });

  it("a write to a closed database rejects instead of reaching LevelDB", async () => {
    const db = await fresh();
    await db.close();
    await assert.rejects(new LevelBatch(db).put(key(1), value(1)).write());
  });
});
