// Whether V8's young generation can be sized after the process started: allocates ~3M short-lived
// objects and prints the new space's size, with the flag given (if any) applied by
// v8.setFlagsFromString at start. On Node 20 (V8 11.3) the new space stays at 2 × 16 MB when the flag
// is set that way and reaches 2 × 64 MB only when `--max-semi-space-size=64` is on node's command
// line (or in NODE_OPTIONS): V8 sizes the young generation when it makes the heap.
//   node test/bench/semi-space-at-start.mjs [--max-semi-space-size=64]
//   node --max-semi-space-size=64 test/bench/semi-space-at-start.mjs
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

const flag = process.argv[2];
if (flag !== undefined) setFlagsFromString(flag);
const newSpaceKb = () =>
  (getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0) >> 10;
const before = newSpaceKb();
let kept = [];
for (let i = 0; i < 3e6; i++) {
  kept.push({ a: i, b: [i, i + 1] });
  if (kept.length > 200_000) kept = [];
}
console.log(
  `flag at start: ${flag ?? "(none)"}; command line: ${process.execArgv.join(" ") || "(none)"}; new space ${before} KB -> ${newSpaceKb()} KB`,
);
