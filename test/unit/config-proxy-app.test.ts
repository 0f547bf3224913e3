// proxy_app in config.toml (and --proxy_app) accepts every in-process app the ABCI client can
// build: a CometBFT v0.34 home converted to rxbft names persistent_kvstore or counter_serial, and
// the node must start on it rather than reject the value its own client knows.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { createExampleApp, IN_PROCESS_APPS } from "../../src/abci/client/create-client.js";
import { configFromToml } from "../../src/config/config-loader.js";

const FILE = "/homes/a/config/config.toml";

for (const name of ["kvstore", "persistent_kvstore", "counter", "counter_serial", "noop"]) {
  test(`proxy_app = "${name}" is accepted, as v0.34 accepts it`, () => {
    assert.equal(configFromToml(`proxy_app = "${name}"`, FILE).config.proxy_app, name);
  });
}

test("every app the ABCI client builds in process is accepted by the config", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rxbft-proxy-app-"));
  try {
    for (const name of IN_PROCESS_APPS) {
      assert.equal(configFromToml(`proxy_app = "${name}"`, FILE).config.proxy_app, name);
      const app = await createExampleApp(name, { kvstoreDir: join(dir, name) });
      await app.close?.();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the error for an unknown app lists every in-process app", () => {
  assert.throws(
    () => configFromToml('proxy_app = "mystore"', FILE),
    (error: Error) => IN_PROCESS_APPS.every((name) => error.message.includes(`"${name}"`)),
  );
});
