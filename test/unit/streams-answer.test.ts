// answerOf (streams/effects/answer.ts): a port's answer as an Observable that emits at once when
// the answer is already here (a simulated validator's whole step stays synchronous), later for a
// promise, passes a stream through, and turns a synchronous throw or a rejection into an error.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { of } from "rxjs";
import { answerOf } from "../../streams/effects/answer.js";

function collect<T>(o: ReturnType<typeof answerOf<T>>) {
  const got: { values: T[]; error?: unknown; done: boolean } = { values: [], done: false };
  o.subscribe({
    next: (v) => got.values.push(v),
    error: (e) => {
      got.error = e;
    },
    complete: () => {
      got.done = true;
    },
  });
  return got;
}

describe("answerOf", () => {
  it("emits an answer already here and completes within subscribe", () => {
    let calls = 0;
    const got = collect(
      answerOf(() => {
        calls++;
        return 7;
      }),
    );
    assert.deepEqual(got, { values: [7], done: true });
    assert.equal(calls, 1);
  });

  it("runs the work again for each subscription, not when built", () => {
    let calls = 0;
    const answer = answerOf(() => ++calls);
    assert.equal(calls, 0);
    assert.deepEqual(collect(answer).values, [1]);
    assert.deepEqual(collect(answer).values, [2]);
  });

  it("emits an array answer as one value", () => {
    assert.deepEqual(collect(answerOf(() => [1, 2])).values, [[1, 2]]);
  });

  it("passes a stream's values through", () => {
    assert.deepEqual(collect(answerOf(() => of(1, 2, 3))), { values: [1, 2, 3], done: true });
  });

  it("turns a synchronous throw into the Observable's error", () => {
    const failure = new Error("port failed");
    const got = collect(
      answerOf((): number => {
        throw failure;
      }),
    );
    assert.equal(got.error, failure);
    assert.deepEqual(got.values, []);
  });

  it("answers a promise later, and a rejection as an error", async () => {
    const later = collect(answerOf(() => Promise.resolve(5)));
    assert.deepEqual(later.values, [], "not yet");
    const failure = new Error("rejected");
    const rejected = collect(answerOf((): Promise<number> => Promise.reject(failure)));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(later, { values: [5], done: true });
    assert.equal(rejected.error, failure);
  });
});
