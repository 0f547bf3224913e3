// The `node` command's flags and the config schema's `flag` annotations describe the same set:
// every documented flag exists, and every flag overrides a real key.
import assert from "node:assert/strict";
import { test } from "node:test";
import Node, { NODE_FLAG_KEYS } from "../../src/commands/node.js";
import { allKeys } from "../../src/config/config-schema.js";

test("every key the schema says has a flag is overridden by that node flag", () => {
  for (const { name, spec } of allKeys()) {
    if (spec.flag === undefined) continue;
    assert.equal(NODE_FLAG_KEYS[spec.flag], name, `--${spec.flag} → ${name}`);
    assert.ok(spec.flag in Node.flags || spec.flag in Node.baseFlags, `--${spec.flag} is a flag of node`);
  }
});

test("every node flag mapped to a key names an existing key of the right kind", () => {
  const keys = new Map(allKeys().map((entry) => [entry.name, entry.spec]));
  for (const [flag, key] of Object.entries(NODE_FLAG_KEYS)) {
    const spec = keys.get(key);
    assert.ok(spec, `--${flag} overrides ${key}, which exists`);
    const definition =
      (Node.flags as Record<string, { type: string }>)[flag] ??
      (Node.baseFlags as Record<string, { type: string }>)[flag];
    assert.ok(definition, `--${flag} is defined`);
    assert.equal(
      definition.type === "boolean",
      spec.kind === "bool",
      `--${flag} is boolean exactly when ${key} is`,
    );
  }
});

test("the issue's required flags all exist", () => {
  for (const flag of [
    "proxy_app",
    "moniker",
    "p2p.seeds",
    "p2p.persistent_peers",
    "p2p.laddr",
    "rpc.laddr",
    "rpc.unsafe",
    "consensus.create_empty_blocks",
    "consensus.create_empty_blocks_interval",
    "log_level",
    "db_backend",
    "fast_sync",
    "blocksync",
  ]) {
    assert.ok(flag in NODE_FLAG_KEYS, flag);
  }
});
