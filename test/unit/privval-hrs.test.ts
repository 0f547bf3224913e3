import assert from "node:assert/strict";
import { test } from "node:test";
import { PrivvalError } from "../../src/privval/errors.js";
import { checkHrs } from "../../src/privval/hrs-check.js";
import type { PrivValidatorState } from "../../src/types/key-file-priv-validator-state.js";

const signedAt = (height: bigint, round: number, step: 0 | 1 | 2 | 3): PrivValidatorState => ({
  height,
  round,
  step,
  signature: new Uint8Array(64).fill(1),
  signBytes: new Uint8Array([1, 2, 3]),
});

test("requests above the last signed height/round/step are new", () => {
  const last = signedAt(10n, 2, 2);
  assert.equal(checkHrs(last, 11n, 0, 1), "new");
  assert.equal(checkHrs(last, 10n, 3, 1), "new");
  assert.equal(checkHrs(last, 10n, 2, 3), "new");
  assert.equal(checkHrs({ height: 0n, round: 0, step: 0 }, 1n, 0, 1), "new");
});

test("the same height/round/step is 'same'", () => {
  assert.equal(checkHrs(signedAt(10n, 2, 2), 10n, 2, 2), "same");
});

test("regressions are refused naming what was asked and what was signed", () => {
  const last = signedAt(10n, 2, 2);
  const cases: Array<[bigint, number, number, RegExp]> = [
    [9n, 5, 3, /^height regression: asked to sign 9\/5\/precommit, last signed 10\/2\/prevote$/],
    [
      10n,
      1,
      3,
      /^round regression at height 10: asked to sign 10\/1\/precommit, last signed 10\/2\/prevote$/,
    ],
    [
      10n,
      2,
      1,
      /^step regression at height 10 round 2: asked to sign 10\/2\/propose, last signed 10\/2\/prevote$/,
    ],
  ];
  for (const [h, r, s, message] of cases) {
    assert.throws(
      () => checkHrs(last, h, r, s),
      (e: unknown) =>
        e instanceof PrivvalError && e.code === "PRIVVAL_HRS_REGRESSION" && message.test(e.message),
    );
  }
});

test("the same step without stored sign bytes is refused rather than signed twice", () => {
  assert.throws(
    () => checkHrs({ height: 5n, round: 0, step: 3 }, 5n, 0, 3),
    (e: unknown) => e instanceof PrivvalError && e.code === "PRIVVAL_NO_SIGN_BYTES",
  );
});
