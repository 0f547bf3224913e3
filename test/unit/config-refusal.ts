// The shape every refused config.toml value must have, shared by the tests of bad config inputs:
// a ConfigError coded CONFIG_INVALID whose message starts with the file and the key's path.
import assert from "node:assert/strict";
import { configFromToml } from "../../src/config/config-loader.js";
import { ConfigError } from "../../src/config/errors.js";

export function assertConfigRefused(toml: string, file: string, where: string, expected: RegExp): void {
  assert.throws(
    () => configFromToml(toml, file),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.code, "CONFIG_INVALID");
      assert.ok(error.message.startsWith(`${file}: ${where}: expected `), error.message);
      assert.match(error.message, expected);
      return true;
    },
  );
}
