// The int64 arithmetic under proposer selection, at the edges where Go's behaviour is specific.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addClip,
  averagePriority,
  centrePriorities,
  clipInt64,
  compareAddresses,
  INT64_MAX,
  INT64_MIN,
  incrementOnce,
  maxMinPriorityDiff,
  mostPriorityIndex,
  newValidatorPriority,
  rescalePriorities,
  subClip,
} from "../../src/types/proposer-priority.js";

test("additions and subtractions clip at the int64 bounds", () => {
  assert.equal(addClip(INT64_MAX, 1n), INT64_MAX);
  assert.equal(addClip(INT64_MIN, -1n), INT64_MIN);
  assert.equal(subClip(INT64_MIN, 1n), INT64_MIN);
  assert.equal(subClip(INT64_MAX, -1n), INT64_MAX);
  assert.equal(addClip(INT64_MAX - 1n, 1n), INT64_MAX);
  assert.equal(subClip(5n, 7n), -2n);
  assert.equal(clipInt64(1n << 70n), INT64_MAX);
});

test("one increment clips the grown priority before the proposer pays the total", () => {
  const p = [INT64_MAX - 5n, 0n];
  const chosen = incrementOnce(p, [10n, 1n], [new Uint8Array([1]), new Uint8Array([2])], 11n);
  assert.equal(chosen, 0);
  assert.deepEqual(p, [INT64_MAX - 11n, 1n]);
  const low = [INT64_MIN + 3n];
  incrementOnce(low, [0n], [new Uint8Array([1])], 10n);
  assert.deepEqual(low, [INT64_MIN]);
});

test("the spread wraps like Go's int64 subtraction", () => {
  assert.equal(maxMinPriorityDiff([5n, -5n]), 10n);
  // max - min = 2^64 - 1 wraps to -1, whose absolute value is 1.
  assert.equal(maxMinPriorityDiff([INT64_MAX, INT64_MIN]), 1n);
  assert.equal(maxMinPriorityDiff([7n]), 0n);
});

test("rescaling divides by ceil(diff / window) and truncates toward zero", () => {
  const p = [101n, -99n];
  rescalePriorities(p, 4n);
  assert.deepEqual(p, [2n, -1n]);
  const within = [2n, -2n];
  rescalePriorities(within, 4n);
  assert.deepEqual(within, [2n, -2n], "a spread equal to the window is left alone");
  const zeroPower = [100n, -100n];
  rescalePriorities(zeroPower, 0n);
  assert.deepEqual(zeroPower, [100n, -100n], "a zero window (no power) does nothing");
  const ceil = [7n, 0n];
  rescalePriorities(ceil, 3n); // ratio ceil(7/3) = 3
  assert.deepEqual(ceil, [2n, 0n]);
});

test("the average is a floor division, also for negative sums", () => {
  assert.equal(averagePriority([1n, 2n, 3n]), 2n);
  assert.equal(averagePriority([100n, -10n, 1n]), 30n);
  assert.equal(averagePriority([-67n, 0n, 0n]), -23n);
  assert.equal(averagePriority([-1n, 0n]), -1n);
  assert.equal(averagePriority([INT64_MAX, INT64_MAX]), INT64_MAX, "no overflow in the sum");
  const p = [-67n, 0n, 0n];
  centrePriorities(p);
  assert.deepEqual(p, [-44n, 23n, 23n]);
});

test("ties in priority go to the smaller address, a prefix being smaller", () => {
  const a = new Uint8Array([1, 2]);
  const b = new Uint8Array([1, 2, 0]);
  const c = new Uint8Array([0, 9]);
  assert.equal(compareAddresses(a, b), -1);
  assert.equal(compareAddresses(b, a), 1);
  assert.equal(compareAddresses(c, a), -1);
  assert.equal(compareAddresses(a, a.slice()), 0);
  assert.equal(mostPriorityIndex([5n, 5n, 5n], [b, a, new Uint8Array([1, 3])]), 1);
  assert.equal(mostPriorityIndex([5n, 6n, 5n], [c, b, a]), 1);
});

test("a new validator's priority is -(P + P>>3)", () => {
  assert.equal(newValidatorPriority(60n), -67n);
  assert.equal(newValidatorPriority(7n), -7n);
  assert.equal(newValidatorPriority(8n), -9n);
});
