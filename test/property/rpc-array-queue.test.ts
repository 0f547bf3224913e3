// The subscription queues' FIFO (src/rpc/subscriptions/array-queue.ts) against a plain array as
// the model: any run of pushes, shifts and clears, long enough to cross the head cut, gives the
// same items in the same order and the same length.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ArrayQueue } from "../../src/rpc/subscriptions/array-queue.js";

type Step = { push: number } | { shift: number } | "clear";

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 3_000 }).map((push) => ({ push })) },
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 3_000 }).map((shift) => ({ shift })) },
  { weight: 1, arbitrary: fc.constant("clear" as const) },
);

test("ArrayQueue behaves as an array's push and shift, across the head cut", () => {
  fc.assert(
    fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
      const queue = new ArrayQueue<number>();
      let model: number[] = [];
      let next = 0;
      for (const s of steps) {
        if (s === "clear") {
          queue.clear();
          model = [];
        } else if ("push" in s) {
          for (let i = 0; i < s.push; i++) {
            queue.push(next);
            model.push(next++);
          }
        } else {
          for (let i = 0; i < s.shift; i++) assert.equal(queue.shift(), model.shift());
        }
        assert.equal(queue.length, model.length);
      }
    }),
    { numRuns: 200 },
  );
});
