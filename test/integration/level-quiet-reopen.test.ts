// Closing and reopening quiet databases at idle (src/level/quiet-reopen.ts) over real LevelDB
// databases: the tables a load mapped and the block cache it filled are let go, the data stays,
// a read or write that arrives while the databases are closed waits and then runs (writes in
// the order they came), a reopen waits for a use in flight and gives up when it outlasts the
// wait, and the kv index opened by openStores answers through the idle release.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { levelMemoryBytes, releaseIdleLevelMemory } from "../../src/level/idle-release.js";
import { liveQuietReopens, QuietReopen } from "../../src/level/quiet-reopen.js";
import { parseQuery } from "../../src/query/parser.js";
import { openStores, persistExecutedHeight } from "../../src/store/index.js";
import { type BinaryLevel, LevelBatch, openBinaryLevel } from "../../src/store/level-database.js";
import { makeExecutedHeight, makeState, makeTxs } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "level-quiet-reopen-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dbCount = 0;
const key = (i: number) => Uint8Array.of(7, (i >>> 16) & 0xff, (i >>> 8) & 0xff, i & 0xff);
/**
 * 200 bytes fixed by i and tag, half of them random: the tables stay large (mapped pages) and their
 * blocks still compress, so LevelDB keeps what it reads in the block cache (an uncompressed block
 * of a mapped table is read in place and never cached).
 */
function value(i: number, tag = 0): Uint8Array {
  const out = new Uint8Array(200);
  let x = (i * 2654435761 + tag * 40503 + 1) >>> 0;
  for (let j = 0; j < out.length / 2; j++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[j] = x & 0xff;
  }
  return out;
}
const hex = (bytes: Uint8Array | undefined) =>
  bytes === undefined ? "none" : Buffer.from(bytes).toString("hex");

/** Resident kB of this process's mappings of files under `location` (LevelDB's mmap'd tables). */
function mappedKb(location: string): number {
  let kb = 0;
  let inside = false;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inside = line.includes(`${location}/`);
    else if (inside && line.startsWith("Rss:")) kb += Number(line.split(/\s+/)[1]);
  }
  return kb;
}

/** A database with ~8 MB of tables (several written out), every key then read once. */
async function loaded(): Promise<{ db: BinaryLevel; location: string }> {
  const location = join(root, `db${dbCount++}`);
  const db = await openBinaryLevel(location);
  for (let from = 0; from < 40_000; from += 10_000) {
    const batch = new LevelBatch(db, { copies: true });
    for (let i = from; i < from + 10_000; i++) batch.put(key(i), value(i));
    await batch.write();
  }
  await db.compactRange(key(0), key(40_000));
  const keys = Array.from({ length: 40_000 }, (_, i) => key(i));
  for (let i = 0; i < keys.length; i += 5_000) await db.getMany(keys.slice(i, i + 5_000));
  return { db, location };
}

/** A promise and its resolve, for a use held in flight. */
function held(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("QuietReopen", () => {
  it("lets go of the mapped tables and the block cache, and keeps the data", async () => {
    const { db, location } = await loaded();
    const group = new QuietReopen([db]);
    after(() => group.close());
    const mappedBefore = mappedKb(location);
    const cacheBefore = levelMemoryBytes(db);
    assert.ok(mappedBefore > 2048, `reads mapped ${mappedBefore} kB of tables`);
    assert.ok(cacheBefore > 1024 * 1024, `reads filled ${cacheBefore} bytes of cache`);

    assert.equal(await group.reopen(), "reopened");

    assert.equal(db.status, "open");
    assert.ok(
      mappedKb(location) < mappedBefore / 4,
      `still mapped: ${mappedKb(location)} kB of ${mappedBefore}`,
    );
    assert.ok(
      levelMemoryBytes(db) < cacheBefore / 4,
      `still cached: ${levelMemoryBytes(db)} of ${cacheBefore}`,
    );
    assert.equal(hex(await db.get(key(39_999))), hex(value(39_999)));
    await group.close();
    await db.close();
  });

  it("holds reads and writes that arrive while closed, then runs them in order", async () => {
    const { db } = await loaded();
    const group = new QuietReopen([db]);
    const reopening = group.reopen();
    assert.notEqual(db.status, "open", "the close has begun");
    const read = group.use(() => db.get(key(123)));
    const writes = [1, 2, 3].map((tag) =>
      group.use(() => {
        const batch = new LevelBatch(db, { copies: true });
        batch.put(key(5), value(5, tag));
        return batch.write();
      }),
    );
    const search = group.use(async () => {
      const found: string[] = [];
      for await (const k of db.keys({ gte: key(100), lt: key(103) })) found.push(hex(k));
      return found;
    });
    assert.equal(await reopening, "reopened");
    assert.equal(hex(await read), hex(value(123)));
    await Promise.all(writes);
    assert.equal(hex(await db.get(key(5))), hex(value(5, 3)), "the last write queued wins");
    assert.deepEqual(await search, [key(100), key(101), key(102)].map(hex));
    await group.close();
    await db.close();
  });

  it("waits for a use in flight, and gives up when it outlasts the wait", async () => {
    const { db } = await loaded();
    const group = new QuietReopen([db], { drainMs: 200 });
    const first = held();
    const inFlight = group.use(() => first.promise);
    const reopening = group.reopen();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(db.status, "open", "nothing closed while a use is in flight");
    first.resolve();
    await inFlight;
    assert.equal(await reopening, "reopened");

    const stuck = held();
    const long = group.use(() => stuck.promise);
    assert.equal(await group.reopen(), "busy");
    assert.equal(db.status, "open");
    stuck.resolve();
    await long;
    assert.equal(group.inFlight, 0);
    await group.close();
    assert.equal(await group.reopen(), "closed", "no reopen after close");
    await db.close();
  });
});

describe("the kv index at idle", () => {
  it("is closed and reopened by the idle release while its routes and writer keep answering", async () => {
    const dir = join(root, `data${dbCount++}`);
    const stores = await openStores(dir, { indexer: "kv", advanceProposerPriority: (set) => set });
    await stores.stateStore.save(makeState(0n));
    for (let h = 1n; h <= 3n; h++) await persistExecutedHeight(stores, makeExecutedHeight(h, 200));
    assert.equal(liveQuietReopens().length >= 1, true, "the index registered its group");
    const hash = sha256(makeTxs(2n, 200)[17]!);

    const release = releaseIdleLevelMemory();
    const during = [
      stores.txIndexer.getByHash(hash),
      stores.txIndexer.search({
        conditions: parseQuery("tx.height=2").conditions,
        page: 1,
        perPage: 100,
        order: "asc",
      }),
      stores.blockIndexer.has(3n),
      persistExecutedHeight(stores, makeExecutedHeight(4n, 50)),
    ] as const;
    const released = await release;
    assert.equal(released.reopened, 2, JSON.stringify(released));
    const [tx, found, has] = await Promise.all(during);
    assert.equal(tx?.height, 2n);
    assert.equal(found.total, 200);
    assert.equal(has, true);
    assert.equal(stores.indexer.indexedHeight(), 4n);
    assert.equal((await stores.txIndexer.getByHash(sha256(makeTxs(4n, 50)[49]!)))?.height, 4n);
    await stores.close();
    assert.equal(
      liveQuietReopens().some(
        (g) => g.names.includes("tx_index.db") && g.names.includes("tx_index_bodies.db"),
      ),
      false,
      "a closed store's group is gone",
    );
  });
});
