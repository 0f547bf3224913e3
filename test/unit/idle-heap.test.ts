// The idle-heap decision (streams/idle-heap.ts): collect once the mempool has stayed empty for the
// quiet time and V8's heap is still the margin above where it settled; never while txs are
// pending, never for a heap within the margin, and once per quiet spell. Nothing is settled at
// start: the heap a start grew is collected in the first quiet spell, as a load's is.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  IDLE_HEAP_MARGIN_BYTES,
  type IdleHeapState,
  idleHeapStep,
  initialIdleHeapState,
  settled,
} from "../../streams/idle-heap.js";

const MB = 1024 * 1024;
const QUIET = 5000;

function run(
  state: IdleHeapState,
  seen: [atMs: number, pendingTxs: number, heapMb: number][],
): { state: IdleHeapState; collectedAt: number[] } {
  const collectedAt: number[] = [];
  for (const [atMs, pendingTxs, heapMb] of seen) {
    const step = idleHeapStep(state, { atMs, pendingTxs, heapBytes: heapMb * MB }, QUIET);
    state = step.state;
    if (step.collect) collectedAt.push(atMs);
  }
  return { state, collectedAt };
}

test("a grown heap is collected once the mempool has been empty for the quiet time", () => {
  const { collectedAt } = run(initialIdleHeapState, [
    [0, 0, 40],
    [1000, 900, 120],
    [2000, 50, 130],
    [3000, 0, 130],
    [7000, 0, 130],
    [8000, 0, 130],
    [9000, 0, 130],
  ]);
  assert.deepEqual(collectedAt, [8000]);
});

test("pending txs restart the quiet time; a heap within the margin is left to V8", () => {
  const pending = run(initialIdleHeapState, [
    [0, 0, 40],
    [1000, 0, 120],
    [5000, 1, 120],
    [6000, 0, 120],
    [10_000, 0, 120],
  ]);
  assert.deepEqual(pending.collectedAt, []);
  const small = run(settled(initialIdleHeapState, 40 * MB), [
    [0, 0, 40],
    [1000, 0, 40 + IDLE_HEAP_MARGIN_BYTES / MB - 1],
    [60_000, 0, 40 + IDLE_HEAP_MARGIN_BYTES / MB - 1],
  ]);
  assert.deepEqual(small.collectedAt, []);
});

test("after a collection the heap settles where it is: the same quiet spell does not collect again", () => {
  const first = run(initialIdleHeapState, [
    [0, 0, 40],
    [1000, 0, 130],
    [6000, 0, 130],
  ]);
  assert.deepEqual(first.collectedAt, [6000]);
  // The collection left 90 MB (still above 40 + margin): 90 is the new settled size.
  const after = run(settled(first.state, 90 * MB), [
    [7000, 0, 90],
    [20_000, 0, 100],
  ]);
  assert.deepEqual(after.collectedAt, []);
});

test("the settled size follows the heap down when V8 shrinks it itself", () => {
  const { state, collectedAt } = run(settled(initialIdleHeapState, 120 * MB), [
    [0, 0, 120],
    [1000, 0, 30],
    [2000, 500, 80],
    [3000, 0, 80],
    [8000, 0, 80],
  ]);
  assert.equal(state.settledBytes, 30 * MB);
  assert.deepEqual(collectedAt, [8000]);
});

test("the start is a load: the heap a node starts with is collected in its first quiet spell, once", () => {
  const { state, collectedAt } = run(initialIdleHeapState, [
    [0, 0, 57],
    [1000, 0, 57],
    [5000, 0, 57],
    [6000, 0, 57],
  ]);
  assert.deepEqual(collectedAt, [5000]);
  const after = run(settled(state, 25 * MB), [
    [7000, 0, 30],
    [20_000, 0, 40],
  ]);
  assert.deepEqual(after.collectedAt, []);
  // A start that left less than the margin is left to V8.
  const small = run(initialIdleHeapState, [
    [0, 0, IDLE_HEAP_MARGIN_BYTES / MB - 1],
    [60_000, 0, IDLE_HEAP_MARGIN_BYTES / MB - 1],
  ]);
  assert.deepEqual(small.collectedAt, []);
});
