// The progress line of long operator runs: its figures, and how often it is drawn.
import assert from "node:assert/strict";
import { test } from "node:test";
import { createProgress, formatProgressLine } from "../../src/operations/progress-bar.js";

test("a progress line shows the bar, counts, percent, rate, extra counts and time left", () => {
  assert.equal(
    formatProgressLine(250, 1000, "heights", 2000, { txs: 5000 }, 10),
    "[###.......] 250/1000 heights 25.0% 125 heights/s, 5000 txs (2500/s), 6.0s left",
  );
  assert.equal(
    formatProgressLine(1000, 1000, "heights", 4000, {}, 4),
    "[####] 1000/1000 heights 100.0% 250 heights/s, 4.0s",
  );
  assert.equal(formatProgressLine(0, 0, "heights", 0, {}, 2), "[##] 0/0 heights 100.0% 0.0 heights/s, 0.0s");
  assert.match(formatProgressLine(1, 100_000, "heights", 1000, {}, 2), /, 27h46m left$/);
});

test("not on a terminal, lines are printed at most once per interval and always at the end", () => {
  let now = 0;
  const lines: string[] = [];
  const progress = createProgress({
    total: 10,
    unit: "heights",
    interactive: false,
    write: (t) => lines.push(t),
    now: () => now,
    intervalMs: 1000,
    width: 10,
  });
  for (let i = 1; i <= 10; i++) {
    now += 300;
    progress.update(i);
  }
  progress.finish();
  // Drawn at 300 ms, 1500 ms, 2700 ms, and the final line.
  assert.equal(lines.length, 4);
  assert.ok(lines.every((l) => l.endsWith("\n") && !l.startsWith("\r")));
  assert.match(lines.at(-1)!, /^\[#{10}\] 10\/10 heights 100\.0% 3\.3 heights\/s, 3\.0s\n$/);
});

test("on a terminal, the line is redrawn in place and ended once", () => {
  let now = 0;
  const out: string[] = [];
  const progress = createProgress({
    total: 2,
    unit: "heights",
    interactive: true,
    write: (t) => out.push(t),
    now: () => now,
  });
  now = 50;
  progress.update(1);
  now = 500;
  progress.update(2);
  progress.finish();
  assert.ok(out.slice(0, -1).every((t) => t.startsWith("\r")));
  assert.equal(out.at(-1), "\n");
});
