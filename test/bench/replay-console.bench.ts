// The replay console on a 10,000-height log (a recorded single-validator simulation run, in the
// node's log format): how fast it folds the log, and how long one step back takes.
//   1. replay throughput: inputs/s of building the console's timeline (the traced reducer, the
//      restart rule, a snapshot every 256 inputs, height/round indexes) beside the plain fold
//      `rxbft replay` does over the same inputs (the untraced reducer, nothing kept).
//   2. step-back latency: p50/p99 of `back` at STEPS random positions (a refold from the nearest
//      snapshot) beside `next` (one fold from the state in hand) at the same positions.
// Writes bench-results/replay-console.json; never fails on time.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import { ReplayConsole } from "../../streams/replay-console/console-commands.js";
import { openSimulationTimeline } from "../../streams/replay-console/console-sources.js";
import { ReplayTimeline, readTimelineInputs } from "../../streams/replay-console/replay-timeline.js";
import { foldRestart } from "../../streams/restart-fold.js";
import { keepFailedRun } from "../sim/failure-log.js";
import type { Scenario } from "../sim/scenario.js";
import { runSimulation } from "../sim/simulation.js";

const HEIGHTS = Number(process.env.RCB_HEIGHTS ?? 10_000);
const STEPS = 400;
const root = fileURLToPath(new URL("../..", import.meta.url));

const scenario: Scenario = {
  seed: 7,
  kind: "calm",
  validators: 1,
  powers: [10n],
  heights: HEIGHTS,
  config: {},
  network: { drop: 0, duplicate: 0, minDelayMs: 1, maxDelayMs: 2, healAtMs: 0 },
  partitions: [],
  crashes: [],
  byzantine: [],
  byzantineUntilHeight: 0,
  gossipEveryMs: 250,
};
const t0 = performance.now();
const outcome = runSimulation(scenario);
if (!outcome.ok) throw new Error(`the recording run failed: ${outcome.failures.join("; ")}`);
const work = mkdtempSync(join(tmpdir(), "rxbft-replay-bench-"));
const runDir = keepFailedRun(outcome, "bench", work);
console.log(
  `recorded ${HEIGHTS} heights, ${outcome.inputs} inputs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)]!;

try {
  const opened = await openSimulationTimeline(runDir, 0);
  const { inputs, segmentStarts } = await readTimelineInputs(join(runDir, "v0"));
  const initial = opened.timeline.initial;

  // 1. Throughput, best of three each, interleaved.
  const plain = createConsensusReducer(createDefaultConsensusRules());
  const plainFold = () => {
    let state = initial;
    for (let j = 0; j < inputs.length; j++) {
      const input = inputs[j]!;
      state =
        input.type === "ConsensusStarted"
          ? foldRestart(plain, initial, input, inputs.slice(segmentStarts[j]!, j))
          : plain(state, input).state;
    }
    return state;
  };
  let plainMs = Infinity;
  let timelineMs = Infinity;
  let timeline: ReplayTimeline = opened.timeline;
  for (let round = 0; round < 3; round++) {
    let t = performance.now();
    plainFold();
    plainMs = Math.min(plainMs, performance.now() - t);
    t = performance.now();
    timeline = new ReplayTimeline(inputs, segmentStarts, initial);
    timelineMs = Math.min(timelineMs, performance.now() - t);
  }
  const plainRate = inputs.length / (plainMs / 1000);
  const timelineRate = inputs.length / (timelineMs / 1000);

  // 2. Step back and forward at random positions (a fixed LCG: the same positions every run).
  const c = new ReplayConsole(timeline);
  let seed = 12345;
  const positions = Array.from({ length: STEPS }, () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 1 + (seed % (inputs.length - 2));
  });
  const back: number[] = [];
  const next: number[] = [];
  for (const p of positions) {
    c.position = p;
    let t = performance.now();
    c.execute("back");
    back.push(performance.now() - t);
    c.position = p;
    t = performance.now();
    c.execute("next");
    next.push(performance.now() - t);
  }

  const result = {
    heights: HEIGHTS,
    inputs: inputs.length,
    snapshotEvery: timeline.snapshotEvery,
    replay: {
      timelineInputsPerSecond: Math.round(timelineRate),
      plainFoldInputsPerSecond: Math.round(plainRate),
      ratio: timelineRate / plainRate,
    },
    stepBackMs: { p50: median(back), p99: p99(back) },
    stepForwardMs: { p50: median(next), p99: p99(next) },
    backOverForward: median(back) / median(next),
  };
  console.log(
    `replay: console timeline ${result.replay.timelineInputsPerSecond.toLocaleString()} inputs/s vs plain fold ${result.replay.plainFoldInputsPerSecond.toLocaleString()} inputs/s (ratio ${result.replay.ratio.toFixed(2)}; aim ≥ 100,000)`,
  );
  console.log(
    `step back: p50 ${result.stepBackMs.p50.toFixed(2)} ms, p99 ${result.stepBackMs.p99.toFixed(2)} ms vs step forward p50 ${result.stepForwardMs.p50.toFixed(2)} ms, p99 ${result.stepForwardMs.p99.toFixed(2)} ms (ratio ${result.backOverForward.toFixed(2)}; aim ≤ 50 ms)`,
  );
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "replay-console.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
