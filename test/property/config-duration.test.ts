// Go durations (config.toml's timeouts): parse and format over the whole int64 range.
import { test } from "node:test";
import fc from "fast-check";
import { formatGoDuration, parseGoDuration } from "../../src/config/duration.js";

test("property: parse(format(n)) = n over the whole non-negative int64 range", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: (1n << 63n) - 1n }),
      (nanos) => parseGoDuration(formatGoDuration(nanos)) === nanos,
    ),
    { numRuns: 2000 },
  );
});

test("property: sums of unit terms parse to their total", () => {
  const units: [string, bigint][] = [
    ["h", 3_600_000_000_000n],
    ["m", 60_000_000_000n],
    ["s", 1_000_000_000n],
    ["ms", 1_000_000n],
    ["us", 1_000n],
    ["ns", 1n],
  ];
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 5 })), {
        minLength: 1,
        maxLength: 6,
      }),
      (terms) => {
        const text = terms.map(([n, u]) => `${n}${units[u]![0]}`).join("");
        const total = terms.reduce((sum, [n, u]) => sum + BigInt(n) * units[u]![1], 0n);
        return parseGoDuration(text) === total;
      },
    ),
    { numRuns: 1000 },
  );
});
