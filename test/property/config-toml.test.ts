// Property: whatever valid values a config holds, the written config.toml reads back to the same
// config (strings with quotes, backslashes, control characters and any Unicode included).
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { defaultConfig } from "../../src/config/config-defaults.js";
import { configFromToml } from "../../src/config/config-loader.js";
import { configToToml } from "../../src/config/config-toml-writer.js";

const codePoint = fc
  .integer({ min: 0, max: 0x10ffff })
  .filter((cp) => cp < 0xd800 || cp > 0xdfff)
  .map((cp) => String.fromCodePoint(cp));
const anyText = fc.string({
  unit: fc.oneof(codePoint, fc.constantFrom('"', "\\", "\n", "\t", "\u007f", "'")),
  maxLength: 40,
});
const ms = fc.integer({ min: 0, max: 10 * 24 * 3600 * 1000 });
const count = fc.integer({ min: 0, max: 2 ** 31 });

test("property: configToToml then configFromToml is the identity", () => {
  fc.assert(
    fc.property(
      fc.record({
        wal_dir: anyText,
        psql: anyText,
        origins: fc.array(anyText, { maxLength: 4 }),
        moniker: fc.stringMatching(/^[\x20-\x7e]{1,30}$/),
        propose: ms,
        commitMs: ms,
        size: count,
        pex: fc.boolean(),
        fetchers: fc.integer({ min: 0, max: 64 }),
      }),
      (values) => {
        const config = defaultConfig("x");
        config.mempool.wal_dir = values.wal_dir;
        config.tx_index["psql-conn"] = values.psql;
        config.rpc.cors_allowed_origins = values.origins;
        config.moniker = values.moniker;
        config.consensus.timeout_propose = values.propose;
        config.consensus.timeout_commit = values.commitMs;
        config.mempool.size = values.size;
        config.p2p.pex = values.pex;
        config.statesync.chunk_fetchers = values.fetchers;
        const back = configFromToml(configToToml(config), "config.toml");
        assert.deepEqual(back.config, config);
        assert.deepEqual(back.warnings, []);
      },
    ),
    { numRuns: 300 },
  );
});
