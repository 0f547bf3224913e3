// The in-process kvstore's Commit writes its block through the database's reused native batch
// (src/level/native-batch.ts), not classic-level's array form, and falls back to the array form
// when that batch is busy; either way the same keys, values, state and app hash land.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { ClassicLevel } from "classic-level";
import { COMMIT_PIECE, KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { FillingBatch, nativeBatchOf } from "../../src/level/native-batch.js";
import { countArrayWrites } from "./level-batch-fixture.js";

type Db = ClassicLevel<Uint8Array, Uint8Array>;
const root = mkdtempSync(join(tmpdir(), "kvstore-commit-batch-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const tx = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const query = (data: string) => ({ data: tx(data), path: "", height: 0n, prove: false });
/** The app's own database (private: reached here only to watch how it is written). */
const dbOf = (app: KvstoreApplication) => (app as unknown as { db: Db }).db;

/** Two blocks (a key written twice in one, so the later write must win), then a restart. */
async function twoBlocksAndRestart(holdNativeBatch: boolean) {
  const dir = join(root, `app${dirs++}`);
  let app = await KvstoreApplication.open(dir);
  const arrays = countArrayWrites(dbOf(app));
  const native = nativeBatchOf(dbOf(app));
  assert.ok(native, "classic-level's binding offers the native batch");
  const held = holdNativeBatch ? native.begin() : undefined;
  app.deliverTx({ tx: tx("k=1") });
  app.deliverTx({ tx: tx("k=2") });
  app.deliverTx({ tx: tx("plain") });
  const first = await app.commit({});
  app.deliverTx({ tx: tx("other=x") });
  const second = await app.commit({});
  held?.abandon();
  await app.close();
  app = await KvstoreApplication.open(dir);
  const found = {
    k: text(app.query(query("k")).value),
    plain: text(app.query(query("plain")).value),
    other: text(app.query(query("other")).value),
    info: app.info({ version: "", blockVersion: 0n, p2pVersion: 0n }),
    hashes: [hex(first.data), hex(second.data)],
    arrayWrites: arrays.count,
  };
  await app.close();
  return found;
}

describe("kvstore Commit", () => {
  it("writes the block through the native batch, not the array form, and it lands whole", async () => {
    const found = await twoBlocksAndRestart(false);
    assert.equal(found.arrayWrites, 0, "no Commit took the array form");
    assert.equal(found.k, "2", "the later write to a key wins");
    assert.equal(found.plain, "plain");
    assert.equal(found.other, "x");
    assert.equal(found.info.data, '{"size":4}');
    assert.equal(found.info.lastBlockHeight, 2n);
    assert.deepEqual(found.hashes, ["0600000000000000", "0800000000000000"]);
  });

  it("takes the array form while the native batch is busy, with the same result", async () => {
    const found = await twoBlocksAndRestart(true);
    assert.equal(found.arrayWrites, 2, "both Commits took the array form");
    assert.equal(found.k, "2");
    assert.equal(found.plain, "plain");
    assert.equal(found.other, "x");
    assert.equal(found.info.data, '{"size":4}');
    assert.equal(found.info.lastBlockHeight, 2n);
    assert.deepEqual(found.hashes, ["0600000000000000", "0800000000000000"]);
  });

  it("a Commit retried after a failed write commits the same height (a chain starting above 1)", async () => {
    const dir = join(root, `app${dirs++}`);
    const app = await KvstoreApplication.open(dir);
    const db = dbOf(app);
    const native = nativeBatchOf(db);
    assert.ok(native);
    // the native batch held, so the write takes the array form, which fails once
    const held = native.begin();
    const original = db.batch.bind(db);
    let failures = 1;
    db.batch = ((...args: unknown[]) => {
      if (Array.isArray(args[0]) && failures-- > 0) return Promise.reject(new Error("disk full"));
      return (original as (...a: unknown[]) => unknown)(...args);
    }) as typeof db.batch;
    app.beginBlock({ hash: new Uint8Array(), header: { height: 5n } } as never);
    app.deliverTx({ tx: tx("k=1") });
    await assert.rejects(app.commit({}), /disk full/);
    const retried = await app.commit({});
    held.abandon();
    const info = app.info({ version: "", blockVersion: 0n, p2pVersion: 0n });
    assert.equal(info.lastBlockHeight, 5n, "the retry commits the block's own height, not 1");
    assert.equal(hex(retried.data), "0200000000000000");
    assert.equal(text(app.query(query("k")).value), "1");
    await app.close();
  });

  it("a large block's Commit fills the native batch a piece per turn, answers queries from the last commit meanwhile, and lands whole", async () => {
    const dir = join(root, `app${dirs++}`);
    const app = await KvstoreApplication.open(dir);
    const arrays = countArrayWrites(dbOf(app));
    app.deliverTx({ tx: tx("k=old") });
    await app.commit({});
    const count = 2 * COMMIT_PIECE + 10;
    app.deliverTx({ tx: tx("k=first") });
    for (let i = 1; i < count - 1; i++) app.deliverTx({ tx: tx(`key${i}=${i}`) });
    // The same key again, in the last piece: the later write wins across pieces.
    app.deliverTx({ tx: tx("k=last") });
    let turns = 0;
    const seen: string[] = [];
    let immediate = setImmediate(function tick() {
      turns++;
      seen.push(text(app.query(query("k")).value));
      immediate = setImmediate(tick);
    });
    // The turns before the one write starts: the batch was filled a piece per turn.
    let turnsBeforeWrite = -1;
    const write = FillingBatch.prototype.write;
    FillingBatch.prototype.write = function (this: FillingBatch, sync: boolean) {
      turnsBeforeWrite = turns;
      return write.call(this, sync);
    };
    const committed = await app.commit({}).finally(() => {
      FillingBatch.prototype.write = write;
    });
    clearImmediate(immediate);
    assert.ok(turnsBeforeWrite >= 2, `the event loop turned ${turnsBeforeWrite} times before the write`);
    // Between pieces nothing of the block is in the database; once the one write lands, all of it.
    assert.equal(seen[0], "old", "a query between pieces answers the last commit");
    assert.ok(
      seen.every((v) => v === "old" || v === "last"),
      `never part of the block: ${seen.join(",")}`,
    );
    assert.equal(arrays.count, 0, "one write through the native batch");
    assert.equal(text(app.query(query("k")).value), "last");
    assert.equal(text(app.query(query(`key${count - 2}`)).value), String(count - 2));
    assert.equal(app.info({ version: "", blockVersion: 0n, p2pVersion: 0n }).data, `{"size":${count + 1}}`);
    assert.equal(committed.data.length, 8);
    await app.close();
  });
});
