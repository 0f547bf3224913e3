// config.toml's memory keys (db_cache_size_mb, db_write_buffer_size_mb, db_max_open_files,
// db_max_file_size_mb, db_tx_index_max_file_size_mb, db_tx_index_write_buffer_size_mb,
// db_tx_index_max_open_files, db_tx_index_home_filter_mb, heap_growing_percent): their defaults, the
// values they accept, the errors for bad values (file, key and what was expected), and the LevelDB
// options they become.
import assert from "node:assert/strict";
import { test } from "node:test";
import { configFromToml } from "../../src/config/config-loader.js";
import { createLogger } from "../../src/logger/index.js";
import { indexerStoreOptions, levelMemoryOf, txIndexLevelMemoryOf } from "../../src/store/indexer-options.js";
import { assertConfigRefused } from "./config-refusal.js";

const FILE = "/homes/a/config/config.toml";
const MB = 1024 * 1024;

test("memory keys: defaults bound each LevelDB database and V8's heap growth", () => {
  const { config } = configFromToml("", FILE);
  assert.equal(config.db_cache_size_mb, 8);
  assert.equal(config.db_write_buffer_size_mb, 4);
  assert.equal(config.db_max_open_files, 100);
  assert.equal(config.db_max_file_size_mb, 2);
  assert.equal(config.heap_growing_percent, 100);
  assert.deepEqual(levelMemoryOf(config), {
    cacheSize: 8 * MB,
    writeBufferSize: 4 * MB,
    maxOpenFiles: 100,
    maxFileSize: 2 * MB,
  });
});

test("memory keys: values in range become classic-level's options in bytes", () => {
  const toml = [
    "db_cache_size_mb = 0",
    "db_write_buffer_size_mb = 1",
    "db_max_open_files = 74",
    "db_max_file_size_mb = 64",
    "heap_growing_percent = 0",
  ].join("\n");
  const { config } = configFromToml(toml, FILE);
  assert.deepEqual(levelMemoryOf(config), {
    cacheSize: 0,
    writeBufferSize: MB,
    maxOpenFiles: 74,
    maxFileSize: 64 * MB,
  });
  assert.equal(config.heap_growing_percent, 0);
  assert.equal(configFromToml("heap_growing_percent = 400", FILE).config.heap_growing_percent, 400);
});

test("db_tx_index_max_file_size_mb, db_tx_index_write_buffer_size_mb and db_tx_index_max_open_files: tx_index.db alone takes 1 MB tables, 16 MB memtables and 100 open tables, every other bound the shared keys", () => {
  const { config } = configFromToml("", FILE);
  assert.equal(config.db_tx_index_max_file_size_mb, 1);
  assert.equal(config.db_tx_index_max_open_files, 100);
  assert.deepEqual(txIndexLevelMemoryOf(config), {
    ...levelMemoryOf(config),
    writeBufferSize: 16 * MB,
    maxFileSize: MB,
    maxOpenFiles: 100,
  });
  const kv = indexerStoreOptions(
    configFromToml('[tx_index]\nindexer = "kv"', FILE).config,
    "c",
    createLogger({ level: "none" }),
  );
  assert.equal(kv.level?.maxFileSize, 2 * MB, "the other databases keep db_max_file_size_mb");
  assert.equal(kv.txIndexLevel?.maxFileSize, MB);
  assert.equal(kv.level?.maxOpenFiles, 100, "the other databases keep db_max_open_files");
  assert.equal(kv.txIndexLevel?.maxOpenFiles, 100);
  const set = configFromToml(
    "db_tx_index_max_file_size_mb = 4\ndb_tx_index_write_buffer_size_mb = 8\ndb_max_open_files = 74\ndb_tx_index_max_open_files = 300",
    FILE,
  ).config;
  assert.deepEqual(txIndexLevelMemoryOf(set), {
    ...levelMemoryOf(set),
    maxOpenFiles: 300,
    writeBufferSize: 8 * MB,
    maxFileSize: 4 * MB,
  });
  assert.equal(levelMemoryOf(set).maxOpenFiles, 74, "db_max_open_files stays the other databases'");
  assert.equal(
    levelMemoryOf(set).writeBufferSize,
    4 * MB,
    "the other databases keep db_write_buffer_size_mb",
  );
});

test("db_tx_index_home_filter_mb: 16 MB by default, 0 for none, given to the kv index in bytes", () => {
  const kv = (toml: string) =>
    indexerStoreOptions(
      configFromToml(`${toml}\n[tx_index]\nindexer = "kv"`, FILE).config,
      "c",
      createLogger({ level: "none" }),
    );
  assert.equal(configFromToml("", FILE).config.db_tx_index_home_filter_mb, 16);
  assert.equal(kv("").homeFilterBytes, 16 * MB);
  assert.equal(kv("db_tx_index_home_filter_mb = 0").homeFilterBytes, 0);
  assert.equal(kv("db_tx_index_home_filter_mb = 256").homeFilterBytes, 256 * MB);
});

const bad: { toml: string; where: string; expected: RegExp }[] = [
  { toml: "db_cache_size_mb = -1", where: "db_cache_size_mb", expected: /an integer in 0…4096, got -1/ },
  { toml: "db_cache_size_mb = 4097", where: "db_cache_size_mb", expected: /an integer in 0…4096, got 4097/ },
  {
    toml: 'db_cache_size_mb = "8MB"',
    where: "db_cache_size_mb",
    expected: /an integer in 0…4096, got "8MB"/,
  },
  {
    toml: "db_write_buffer_size_mb = 0",
    where: "db_write_buffer_size_mb",
    expected: /an integer in 1…1024, got 0/,
  },
  { toml: "db_write_buffer_size_mb = 2.5", where: "db_write_buffer_size_mb", expected: /got 2.5/ },
  // LevelDB raises anything below 74 to 74 by itself; refusing it says so instead of hiding it.
  { toml: "db_max_open_files = 10", where: "db_max_open_files", expected: /an integer in 74…50000, got 10/ },
  { toml: "db_max_file_size_mb = 0", where: "db_max_file_size_mb", expected: /an integer in 1…1024, got 0/ },
  // LevelDB raises a table file size below 1 MB to 1 MB by itself.
  {
    toml: "db_tx_index_max_file_size_mb = 0",
    where: "db_tx_index_max_file_size_mb",
    expected: /an integer in 1…1024, got 0/,
  },
  // LevelDB raises anything below 74 to 74 by itself.
  {
    toml: "db_tx_index_max_open_files = 73",
    where: "db_tx_index_max_open_files",
    expected: /an integer in 74…50000, got 73/,
  },
  {
    toml: "db_tx_index_write_buffer_size_mb = 0",
    where: "db_tx_index_write_buffer_size_mb",
    expected: /an integer in 1…1024, got 0/,
  },
  {
    toml: "db_tx_index_home_filter_mb = 257",
    where: "db_tx_index_home_filter_mb",
    expected: /an integer in 0…256, got 257/,
  },
  {
    toml: "db_tx_index_home_filter_mb = -1",
    where: "db_tx_index_home_filter_mb",
    expected: /an integer in 0…256, got -1/,
  },
  {
    toml: "heap_growing_percent = -5",
    where: "heap_growing_percent",
    expected: /an integer in 0…400, got -5/,
  },
  {
    toml: "heap_growing_percent = 401",
    where: "heap_growing_percent",
    expected: /an integer in 0…400, got 401/,
  },
  {
    toml: "heap_growing_percent = true",
    where: "heap_growing_percent",
    expected: /an integer in 0…400, got true/,
  },
];

for (const { toml, where, expected } of bad) {
  test(`memory keys: ${toml} is refused with the key and the range`, () => {
    assertConfigRefused(toml, FILE, where, expected);
  });
}
