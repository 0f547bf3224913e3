// tx_index_bodies.db's LevelDB bounds, derived from config.toml's db_* keys: an eighth of the
// block cache and a quarter of the write buffer (LevelDB's 64-KiB floor kept), the table bounds
// unchanged.
import assert from "node:assert/strict";
import { test } from "node:test";
import { configFromToml } from "../../src/config/config-loader.js";
import { levelMemoryOf } from "../../src/store/indexer-options.js";
import { DEFAULT_LEVEL_MEMORY } from "../../src/store/level-database.js";
import { bodiesLevelMemory } from "../../src/store/open-stores.js";

const MB = 1024 * 1024;

test("bodies' bounds: 1 MB of cache and 1 MB of memtable with the default db_* keys", () => {
  const { config } = configFromToml("", "/homes/a/config/config.toml");
  assert.deepEqual(bodiesLevelMemory(levelMemoryOf(config)), {
    cacheSize: MB,
    writeBufferSize: MB,
    maxOpenFiles: 100,
    maxFileSize: 2 * MB,
  });
  assert.deepEqual(bodiesLevelMemory(), bodiesLevelMemory(DEFAULT_LEVEL_MEMORY));
});

test("bodies' bounds follow the operator's db_* keys, never below LevelDB's smallest memtable", () => {
  const toml = "db_cache_size_mb = 0\ndb_write_buffer_size_mb = 1\ndb_max_open_files = 500";
  const small = bodiesLevelMemory(levelMemoryOf(configFromToml(toml, "/h/config.toml").config));
  assert.equal(small.cacheSize, 0);
  assert.equal(small.writeBufferSize, 256 * 1024);
  assert.equal(small.maxOpenFiles, 500);
  const tiny = bodiesLevelMemory({ ...DEFAULT_LEVEL_MEMORY, writeBufferSize: 100 * 1024 });
  assert.equal(tiny.writeBufferSize, 64 * 1024);
  const large = bodiesLevelMemory({ ...DEFAULT_LEVEL_MEMORY, cacheSize: 64 * MB, writeBufferSize: 16 * MB });
  assert.equal(large.cacheSize, 8 * MB);
  assert.equal(large.writeBufferSize, 4 * MB);
});
