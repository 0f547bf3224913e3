// Simulation figures beside a same-run baseline: simulated heights per CPU-second (process.cpuUsage)
// of whole runs (N validators on virtual time: the loop, the source step with signature checks, the
// node's own effect handlers (signing by the FileSigner, block validation by src/state's rule,
// execution), gossip and the network) for 4 and for 7 validators on a
// calm network and on the faulty mixes; the baseline is the reducer alone folding the very same
// inputs (every validator's log of that run), which is the floor any harness around it adds to.
// Both contenders measure the same runs; medians of 5 runs after a warm-up. Bounded in runs
// (about 30 s of CPU); never fails on time. The load average is printed at the start and the end.
//
// The warm-up is WARM_UP_RUNS whole runs of each size (30 heights, calm), not one short run: a
// simulating process gets faster for its first several hundred heights (V8 tiering up the node's
// many functions: 18-32 heights/CPU-s for the first runs, ~100 by the fifteenth, docs/simulation.md),
// and a campaign (run-sim, thousands of runs per process) spends nearly all its time past that.
// The warm-up's first and last runs are printed too, so the cold figure stays in view.
// Writes bench-results/sim.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import { initialConsensusState } from "../../src/consensus/state.js";
import { type ScenarioKind, scenarioFromSeed } from "../sim/scenario.js";
import { runSimulation, type SimOutcome } from "../sim/simulation.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const RUNS = 5;
const HEIGHTS = 30;
const WARM_UP_RUNS = 15;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const cpuSeconds = (work: () => void) => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
};

/** The reducer alone over every validator's logged inputs of `outcome` (restarts refold as the node does). */
function refold(outcome: SimOutcome): void {
  const config = { ...DEFAULT_CONSENSUS_CONFIG, ...outcome.scenario.config };
  for (const node of outcome.nodes) {
    const reducer = createConsensusReducer(createDefaultConsensusRules());
    let state = initialConsensusState({ config, ownAddress: node.address });
    for (const record of node.log) {
      if (!("input" in record)) continue;
      if (record.input.type === "ConsensusStarted")
        state = initialConsensusState({ config, ownAddress: node.address });
      state = reducer(state, record.input).state;
    }
  }
}

interface Figure {
  validators: number;
  kind: ScenarioKind | "faulty mix";
  simHeightsPerCpuSecond: number;
  reducerAloneHeightsPerCpuSecond: number;
  simToReducerCostRatio: number;
  inputsPerHeight: number;
  runs: number;
}

function measure(validators: number, kinds: readonly ScenarioKind[], label: Figure["kind"]): Figure {
  const sim: number[] = [];
  const alone: number[] = [];
  const inputs: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const kind = kinds[r % kinds.length]!;
    const scenario = scenarioFromSeed(1000 + r * 6 + kinds.indexOf(kind), {
      validators,
      heights: HEIGHTS,
      kind,
    });
    let outcome!: SimOutcome;
    const simCpu = cpuSeconds(() => {
      outcome = runSimulation(scenario);
    });
    if (!outcome.ok)
      throw new Error(`bench run failed: seed ${scenario.seed}: ${outcome.failures.join("; ")}`);
    const aloneCpu = cpuSeconds(() => refold(outcome));
    sim.push(HEIGHTS / simCpu);
    alone.push(HEIGHTS / aloneCpu);
    inputs.push(outcome.inputs / HEIGHTS);
  }
  const s = median(sim);
  const a = median(alone);
  return {
    validators,
    kind: label,
    simHeightsPerCpuSecond: Math.round(s * 10) / 10,
    reducerAloneHeightsPerCpuSecond: Math.round(a * 10) / 10,
    simToReducerCostRatio: Math.round((a / s) * 100) / 100,
    inputsPerHeight: Math.round(median(inputs)),
    runs: RUNS,
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const loadAtStart = load();
console.log(`load average at start: ${loadAtStart}`);

// Warm-up (JIT tiering, key caches): WARM_UP_RUNS calm runs of each size, on seeds the figures do
// not use; each timed, so the first (cold) and last (warm) are reported beside the figures.
const warmUp: { validators: number; firstRun: number; lastRun: number }[] = [];
for (const validators of [4, 7]) {
  const perRun: number[] = [];
  for (let r = 0; r < WARM_UP_RUNS; r++) {
    let outcome!: SimOutcome;
    const cpu = cpuSeconds(() => {
      outcome = runSimulation(scenarioFromSeed(500 + r, { validators, heights: HEIGHTS, kind: "calm" }));
    });
    refold(outcome);
    perRun.push(HEIGHTS / cpu);
  }
  warmUp.push({
    validators,
    firstRun: Math.round(perRun[0]! * 10) / 10,
    lastRun: Math.round(perRun.at(-1)! * 10) / 10,
  });
}

const figures: Figure[] = [];
for (const validators of [4, 7]) {
  figures.push(measure(validators, ["calm"], "calm"));
  figures.push(measure(validators, ["lossy", "partition", "crash", "byzantine", "mixed"], "faulty mix"));
}

for (const f of figures) {
  console.log(
    `${f.validators} validators, ${f.kind.padEnd(10)}: simulation ${String(f.simHeightsPerCpuSecond).padStart(7)} heights/CPU-s; ` +
      `baseline, reducer alone on the same inputs ${String(f.reducerAloneHeightsPerCpuSecond).padStart(7)} heights/CPU-s; ` +
      `the simulation costs ${f.simToReducerCostRatio.toFixed(2)}× the reducer (${f.inputsPerHeight} inputs per height)`,
  );
}
for (const w of warmUp)
  console.log(
    `${w.validators} validators, warm-up of ${WARM_UP_RUNS} calm runs: first run ${w.firstRun} heights/CPU-s, last ${w.lastRun}`,
  );
const loadAtEnd = load();
console.log(`load average at end: ${loadAtEnd}`);
mkdirSync(join(root, "bench-results"), { recursive: true });
writeFileSync(
  join(root, "bench-results", "sim.json"),
  `${JSON.stringify({ heights: HEIGHTS, warmUpRuns: WARM_UP_RUNS, warmUp, figures, loadAtStart, loadAtEnd }, null, 2)}\n`,
);
