// The rule that sends a node in consensus back to block sync (src/blocksync/caught-up.ts
// fellBehind): more than fall_behind_heights below the highest height any peer reports, with that
// height as the answer; at or within the threshold, ahead of the peers, without peers, or with
// the rule off (0), it stays in consensus.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fellBehind } from "../../src/blocksync/index.js";

test("more than the threshold below the highest peer: back to block sync, towards that peer's height", () => {
  assert.equal(fellBehind(100n, [150n, 201n], 100n), 201n);
  assert.equal(fellBehind(100n, [201n, 150n], 100n), 201n);
  assert.equal(fellBehind(0n, [2n], 1n), 2n);
});

test("at or within the threshold, or ahead of every peer: consensus catches up by itself", () => {
  assert.equal(fellBehind(100n, [200n], 100n), undefined);
  assert.equal(fellBehind(100n, [101n, 120n], 20n), undefined);
  assert.equal(fellBehind(500n, [10n, 499n], 1n), undefined);
});

test("no peer heights, or the rule off (0): never", () => {
  assert.equal(fellBehind(100n, [], 100n), undefined);
  assert.equal(fellBehind(1n, [10_000n], 0n), undefined);
  assert.equal(fellBehind(1n, [10_000n], -5n), undefined);
});
