import assert from "node:assert/strict";
import { test } from "node:test";
import { formatGoDuration, parseGoDuration } from "../../src/config/duration.js";

const S = 1_000_000_000n;

test("parses Go durations as time.ParseDuration does", () => {
  const cases: [string, bigint][] = [
    ["0", 0n],
    ["0s", 0n],
    ["1s", S],
    ["500ms", 500_000_000n],
    ["1m30s", 90n * S],
    ["168h0m0s", 168n * 3600n * S],
    ["1.5h", 5400n * S],
    ["1h2m3.5s", 3723n * S + S / 2n],
    ["10us", 10_000n],
    ["10µs", 10_000n],
    ["7ns", 7n],
    ["+2s", 2n * S],
    ["-2s", -2n * S],
    [".5s", S / 2n],
  ];
  for (const [text, nanos] of cases) assert.equal(parseGoDuration(text), nanos, text);
});

test("rejects what Go rejects, saying why", () => {
  assert.match(parseGoDuration("") as string, /empty/);
  assert.match(parseGoDuration("3") as string, /missing unit/);
  assert.match(parseGoDuration("1h30") as string, /missing unit/);
  assert.match(parseGoDuration("3 s") as string, /invalid/);
  assert.match(parseGoDuration("3d") as string, /unknown unit "d"/);
  assert.match(parseGoDuration("s") as string, /invalid/);
  assert.match(parseGoDuration("9999999999h") as string, /overflows/);
});

test("formats as Duration.String does", () => {
  const cases: [bigint, string][] = [
    [0n, "0s"],
    [1n, "1ns"],
    [1_500n, "1.5µs"],
    [500_000_000n, "500ms"],
    [S, "1s"],
    [90n * S, "1m30s"],
    [168n * 3600n * S, "168h0m0s"],
    [3723n * S + S / 2n, "1h2m3.5s"],
    [-2n * S, "-2s"],
  ];
  for (const [nanos, text] of cases) assert.equal(formatGoDuration(nanos), text, text);
});

test("format then parse is the identity", () => {
  for (const nanos of [0n, 1n, 999n, 1_000_001n, 59n * S + 1n, 3601n * S, 123_456_789_012_345n]) {
    assert.equal(parseGoDuration(formatGoDuration(nanos)), nanos);
  }
});
