import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { sha256 } from "../../src/crypto/hash.js";
import { parseQuery } from "../../src/query/parser.js";
import { clearStores, openStores, persistExecutedHeight, type Stores } from "../../src/store/index.js";
import type { ValidatorSet } from "../../src/wire/generated/tendermint/types/validator.js";
import { makeExecutedHeight, makeState } from "../fixtures/store/chain-fixture.js";

const root = mkdtempSync(join(tmpdir(), "store-reconcile-"));
after(() => rmSync(root, { recursive: true, force: true }));
let dirCount = 0;
// Fixture validator sets never change priority here; the real function lives in the state module.
const advanceProposerPriority = (set: ValidatorSet): ValidatorSet => set;

async function chain(
  heights: number,
  indexer: "kv" | "null" = "kv",
): Promise<{ stores: Stores; dir: string }> {
  const dir = join(root, `data${dirCount++}`);
  const stores = await openStores(dir, { indexer, advanceProposerPriority });
  await stores.stateStore.save(makeState(0n));
  for (let h = 1n; h <= BigInt(heights); h++) await persistExecutedHeight(stores, makeExecutedHeight(h, 3));
  return { stores, dir };
}

const txCount = async (stores: Stores, query: string) =>
  (
    await stores.txIndexer.search({
      conditions: parseQuery(query).conditions,
      page: 1,
      perPage: 100,
      order: "asc",
    })
  ).total;

describe("openStores and reconcile", () => {
  it("reports a fresh data directory as empty, and a clean one as consistent", async () => {
    const dir = join(root, `data${dirCount++}`);
    const empty = await openStores(dir, { indexer: "kv" });
    const report = await empty.reconcile();
    assert.equal(report.stateHeight, undefined);
    assert.match(report.findings[0]!, /stores are empty/);
    await empty.close();
    const { stores } = await chain(3);
    const clean = await stores.reconcile();
    assert.equal(clean.replayHeight, undefined);
    assert.deepEqual(clean.reindexHeights, []);
    assert.equal(clean.indexedHeight, 3n);
    await stores.close();
  });

  it("asks for a replay when the block was saved but the state was not", async () => {
    const { stores, dir } = await chain(3);
    await stores.blockStore.saveBlock(makeExecutedHeight(4n, 3).block);
    await stores.close();
    const reopened = await openStores(dir, { indexer: "kv" });
    const report = await reopened.reconcile();
    assert.equal(report.replayHeight, 4n);
    assert.match(
      report.findings.join("\n"),
      /block store at 4, state at 3: state will be rebuilt by replay of height 4/,
    );
    assert.equal(report.replayResponsesSaved, false);
    // Executed, responses saved, then stopped before the state: the handshake can use them.
    const executed = makeExecutedHeight(4n, 3);
    await reopened.stateStore.saveABCIResponses(4n, executed.abciResponses);
    assert.equal((await reopened.reconcile()).replayResponsesSaved, true);
    // After the handshake saved state 4, a second reconcile indexes height 4.
    await reopened.stateStore.save(executed.state, executed.abciResponses);
    const afterHandshake = await reopened.reconcile();
    assert.deepEqual(afterHandshake.reindexHeights, [4n]);
    assert.equal(await txCount(reopened, "tx.height = 4"), 3);
    await reopened.close();
  });

  it("re-indexes heights whose state was saved but whose index was not", async () => {
    const { stores, dir } = await chain(2);
    const h3 = makeExecutedHeight(3n, 3);
    const h4 = makeExecutedHeight(4n, 3);
    for (const h of [h3, h4]) {
      await stores.blockStore.saveBlock(h.block);
      await stores.stateStore.save(h.state, h.abciResponses);
    }
    await stores.close();
    const reopened = await openStores(dir, { indexer: "kv" });
    assert.equal(await reopened.txIndexer.getByHash(sha256(h4.block.block.data.txs[0]!)), undefined);
    const dry = await reopened.reconcile({ repair: false });
    assert.deepEqual(dry.reindexHeights, [3n, 4n]);
    assert.equal(reopened.indexer.indexedHeight(), 2n, "a dry run changes nothing");
    const report = await reopened.reconcile();
    assert.deepEqual(report.reindexHeights, [3n, 4n]);
    assert.equal(reopened.indexer.indexedHeight(), 4n);
    assert.equal((await reopened.txIndexer.getByHash(sha256(h4.block.block.data.txs[2]!)))?.index, 2);
    assert.equal(await txCount(reopened, "tx.height >= 3"), 6);
    await reopened.close();
  });

  it("names what is wrong when the stores cannot come from a crash", async () => {
    const { stores, dir } = await chain(2);
    await stores.blockStore.saveBlock(makeExecutedHeight(3n, 1).block);
    await stores.blockStore.saveBlock(makeExecutedHeight(4n, 1).block);
    await assert.rejects(stores.reconcile(), (e: Error & { code?: string }) => {
      assert.equal(e.code, "STORE_INCONSISTENT");
      assert.match(e.message, /block store at 4 is 2 heights ahead of state at 2/);
      return true;
    });
    await stores.close();
    // State ahead of blocks: drop the block store only.
    rmSync(join(dir, "blockstore.db"), { recursive: true });
    const statesOnly = await openStores(dir, { indexer: "kv" });
    const report = await statesOnly.reconcile();
    assert.match(report.findings.join("\n"), /state-synced/);
    await statesOnly.close();
  });

  it("works with the null indexer and clears everything for unsafe_reset_all", async () => {
    const { stores, dir } = await chain(2, "null");
    assert.equal((await stores.reconcile()).indexedHeight, undefined);
    await assert.rejects(stores.txIndexer.getByHash(new Uint8Array(32)), /transaction indexing is disabled/);
    assert.equal(existsSync(join(dir, "tx_index.db")), false);
    await stores.close();
    await clearStores(dir);
    for (const name of ["blockstore.db", "state.db", "tx_index.db"])
      assert.equal(existsSync(join(dir, name)), false);
    const reopened = await openStores(dir, { indexer: "kv" });
    assert.equal(reopened.blockStore.height(), 0n);
    assert.equal(reopened.stateStore.load(), undefined);
    await reopened.close();
  });

  it("refuses to open a data directory another process holds", async () => {
    const { stores, dir } = await chain(1);
    await assert.rejects(openStores(dir, { indexer: "kv" }), (e: Error & { code?: string }) => {
      assert.equal(e.code, "STORE_OPEN_FAILED");
      assert.match(e.message, /blockstore\.db/);
      assert.match(e.message, /another rxbft process/);
      return true;
    });
    await stores.close();
  });
});
