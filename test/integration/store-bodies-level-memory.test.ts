// tx_index_bodies.db's LevelDB bounds, derived from config.toml's keys: an eighth of the block
// cache (db_cache_size_mb) and half of tx_index.db's memtable (db_tx_index_write_buffer_size_mb;
// LevelDB's 64-KiB floor kept), the table bounds the shared ones.
import assert from "node:assert/strict";
import { test } from "node:test";
import { configFromToml } from "../../src/config/config-loader.js";
import { levelMemoryOf, txIndexLevelMemoryOf } from "../../src/store/indexer-options.js";
import { DEFAULT_LEVEL_MEMORY } from "../../src/store/level-database.js";
import { bodiesLevelMemory } from "../../src/store/open-stores.js";

const MB = 1024 * 1024;

test("bodies' bounds: 1 MB of cache and an 8 MB memtable with the default keys", () => {
  const { config } = configFromToml("", "/homes/a/config/config.toml");
  const bounds = bodiesLevelMemory(levelMemoryOf(config), txIndexLevelMemoryOf(config).writeBufferSize);
  assert.deepEqual(bounds, {
    cacheSize: MB,
    writeBufferSize: 8 * MB,
    maxOpenFiles: 100,
    maxFileSize: 2 * MB,
  });
  assert.deepEqual(
    bodiesLevelMemory(),
    bounds,
    "a tool that opens the index without a config takes the same",
  );
});

test("bodies' bounds follow the operator's keys, never below LevelDB's smallest memtable", () => {
  const toml =
    "db_cache_size_mb = 0\ndb_write_buffer_size_mb = 1\ndb_max_open_files = 500\ndb_tx_index_write_buffer_size_mb = 1";
  const { config } = configFromToml(toml, "/h/config.toml");
  const small = bodiesLevelMemory(levelMemoryOf(config), txIndexLevelMemoryOf(config).writeBufferSize);
  assert.equal(small.cacheSize, 0);
  assert.equal(small.writeBufferSize, 512 * 1024);
  assert.equal(small.maxOpenFiles, 500);
  const tiny = bodiesLevelMemory(DEFAULT_LEVEL_MEMORY, 100 * 1024);
  assert.equal(tiny.writeBufferSize, 64 * 1024);
  const large = bodiesLevelMemory({ ...DEFAULT_LEVEL_MEMORY, cacheSize: 64 * MB }, 64 * MB);
  assert.equal(large.cacheSize, 8 * MB);
  assert.equal(large.writeBufferSize, 32 * MB);
});
