// The idle release of LevelDB's native memory (src/level/idle-release.ts) over real databases:
// the memtable a load filled is written out to a table (LevelDB's own count of its memory falls,
// the data stays readable), the reused native batch is let go unless a write holds it, and writes
// made while the release runs land whole.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  levelMemoryBytes,
  releaseIdleLevelMemory,
  releaseIdleLevelMemoryForLog,
} from "../../src/level/idle-release.js";
import { nativeBatchOf } from "../../src/level/native-batch.js";
import { type BinaryLevel, LevelBatch, openBinaryLevel } from "../../src/store/level-database.js";

const root = mkdtempSync(join(tmpdir(), "level-idle-release-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;
const MB = 1024 * 1024;
const fresh = async () => {
  const location = join(root, `db${dbCount++}`);
  return { db: await openBinaryLevel(location), location };
};
const key = (i: number) => Uint8Array.of(7, (i >>> 16) & 0xff, (i >>> 8) & 0xff, i & 0xff);
const value = (i: number) => new Uint8Array(200).fill(i & 0xff);
const hex = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? "none" : Buffer.from(bytes).toString("hex");
const hexAt = async (db: BinaryLevel, i: number) => hex(await db.get(key(i)));
const tables = (location: string) => readdirSync(location).filter((f) => f.endsWith(".ldb")).length;

/** ~2 MB in one write: under the 4 MB memtable, so LevelDB keeps it all in memory. */
async function fill(db: BinaryLevel, from: number, count: number): Promise<void> {
  const batch = new LevelBatch(db, { copies: true });
  for (let i = from; i < from + count; i++) batch.put(key(i), value(i));
  await batch.write();
}

describe("releaseIdleLevelMemory", () => {
  it("writes a filled memtable out to a table and lets the native batch go", async () => {
    const { db, location } = await fresh();
    await fill(db, 0, 10_000);
    const native = nativeBatchOf(db)!;
    assert.equal(native.retained, true, "the write's batch is kept for reuse");
    const before = levelMemoryBytes(db);
    assert.ok(before > 2 * MB, `LevelDB holds ${before} bytes after a 2 MB write`);
    assert.equal(tables(location), 0, "nothing written out yet");

    const released = await releaseIdleLevelMemory();

    const afterBytes = levelMemoryBytes(db);
    assert.ok(afterBytes < 256 * 1024, `LevelDB still holds ${afterBytes} bytes`);
    assert.ok(tables(location) >= 1, "the memtable became a table");
    assert.equal(native.retained, false, "the batch is let go");
    assert.ok(released.databases >= 1 && released.batches >= 1, JSON.stringify(released));
    assert.ok(released.levelBytesBefore >= before && released.levelBytesAfter < released.levelBytesBefore);
    const name = location.split("/").at(-1)!;
    assert.ok(name in released.levelBytesAfterByDatabase, JSON.stringify(released.levelBytesAfterByDatabase));
    assert.equal(
      Object.values(released.levelBytesAfterByDatabase).reduce((a, b) => a + b, 0),
      released.levelBytesAfter,
      "each database's remainder, summed, is the total",
    );
    assert.equal(await hexAt(db, 9_999), hex(value(9_999)));
    await fill(db, 10_000, 10);
    assert.equal(native.retained, true, "the next write makes a new batch");
    await db.close();
  });

  it("leaves a batch being filled alone, and writes made during the release land whole", async () => {
    const { db } = await fresh();
    await fill(db, 0, 5_000);
    const native = nativeBatchOf(db)!;
    const filling = new LevelBatch(db, { copies: true }).put(key(1), value(77));
    const release = releaseIdleLevelMemory();
    const during = [fill(db, 20_000, 3_000), fill(db, 30_000, 3_000)];
    await release;
    assert.equal(native.retained, true, "a batch being filled is not let go");
    await filling.write();
    await Promise.all(during);
    assert.equal(await hexAt(db, 1), hex(value(77)));
    assert.equal(await hexAt(db, 22_999), hex(value(22_999)));
    assert.equal(await hexAt(db, 32_999), hex(value(32_999)));
    assert.equal(await hexAt(db, 4_999), hex(value(4_999)));
    await db.close();
  });

  it("skips a database closed since it was written", async () => {
    const { db } = await fresh();
    await fill(db, 0, 100);
    await db.close();
    const { db: open } = await fresh();
    await fill(open, 0, 100);
    const released = await releaseIdleLevelMemory();
    assert.equal(open.status, "open");
    assert.ok(released.databases >= 1);
    await open.close();
  });
});

describe("releaseIdleLevelMemoryForLog", () => {
  it("names each database's remainder after its folder", async () => {
    const location = join(root, "tx_index.db");
    const db = await openBinaryLevel(location);
    await fill(db, 0, 1_000);
    const fields = await releaseIdleLevelMemoryForLog();
    assert.equal(typeof fields.level_mb_after_tx_index_db, "number", JSON.stringify(fields));
    await db.close();
  });
});
