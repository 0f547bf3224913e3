// [tx_index] indexer = "psql" and psql-conn: accepted in v0.34's URL form, refused with the key
// named otherwise, and a refused value is never echoed (it may hold a password).
import assert from "node:assert/strict";
import { test } from "node:test";
import { configFromToml } from "../../src/config/config-loader.js";
import { checkConnUrl, errorText, redactConnUrl } from "../../src/store/indexer/psql/psql-connection.js";

const FILE = "/homes/a/config/config.toml";

test("indexer = psql with a postgresql:// URL loads", () => {
  const url = "postgresql://rx:s3cret@127.0.0.1:5432/chain?sslmode=disable";
  const config = configFromToml(`[tx_index]\nindexer = "psql"\npsql-conn = "${url}"`, FILE).config;
  assert.equal(config.tx_index.indexer, "psql");
  assert.equal(config.tx_index["psql-conn"], url);
});

test("indexer = psql without a URL names psql-conn and never echoes the value", () => {
  for (const conn of ["", "host=127.0.0.1 password=hunter2", "mysql://u:hunter2@h/db"]) {
    assert.throws(
      () => configFromToml(`[tx_index]\nindexer = "psql"\npsql-conn = "${conn}"`, FILE),
      (error: Error) => {
        assert.match(error.message, /\[tx_index\] psql-conn: expected a URL postgresql:\/\//);
        assert.ok(!error.message.includes("hunter2"), error.message);
        return true;
      },
    );
  }
});

test("an unknown indexer lists the three", () => {
  assert.throws(() => configFromToml('[tx_index]\nindexer = "mysql"', FILE), /"null", "kv", "psql"/);
});

test("the connection URL is shown with its password replaced", () => {
  assert.equal(
    redactConnUrl("postgresql://rx:s3cret@db.local:6432/chain?sslmode=require"),
    "postgresql://rx:***@db.local:6432/chain?sslmode=require",
  );
  assert.equal(redactConnUrl("postgres://rx@h/db"), "postgres://rx@h/db");
  assert.equal(redactConnUrl("not a url"), "(not a URL)");
  assert.throws(
    () => checkConnUrl("http://h/db"),
    /psql-conn http:\/\/h\/db: expected the scheme postgresql:\/\//,
  );
  assert.equal(errorText(new Error("bad s3cret here"), "postgresql://rx:s3cret@h/db"), "bad *** here");
});
