// The simulation from the command line:
//   npm run sim -- --runs N --seed S [--validators 4..7] [--heights 30] [--kind K]
//                  [--split-votes] [--break-rule ignore-lock|precommit-without-polka] [--lock-split]
//                  [--keep-logs DIR] [--quiet]
// Runs seeds S, S+1, …, S+N-1; prints the code it runs (commit and source fingerprint), one line
// per run with the run's fingerprint (its logs' sha256: a rerun at the same code must print the
// same) and a summary; a failed run prints its seed, scenario and failures, keeps its logs under
// test/sim/failures/<seed>/ and makes the exit status 1. A run that uses real time fails
// (checked-run.ts).
import { parseArgs } from "node:util";
import type { TestOnlyBrokenRule } from "../../src/consensus/config.js";
import { runCheckedSimulation } from "./checked-run.js";
import { codeVersion, describeCodeVersion } from "./code-version.js";
import { FAILURES_DIR, keepFailedRun } from "./failure-log.js";
import { runFingerprint, shortFingerprint } from "./run-fingerprint.js";
import {
  describeScenario,
  lockSplitScenario,
  SCENARIO_KINDS,
  type Scenario,
  type ScenarioKind,
  type ScenarioOptions,
  scenarioFromSeed,
} from "./scenario.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "20" },
    seed: { type: "string", default: "1" },
    validators: { type: "string" },
    heights: { type: "string", default: "30" },
    kind: { type: "string" },
    "split-votes": { type: "boolean", default: false },
    "break-rule": { type: "string" },
    "lock-split": { type: "boolean", default: false },
    "keep-logs": { type: "string", default: FAILURES_DIR },
    quiet: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(
    "npm run sim -- --runs N --seed S [--validators 4..7] [--heights 30] [--kind calm|lossy|partition|crash|byzantine|mixed]\n" +
      "               [--split-votes] [--break-rule ignore-lock|precommit-without-polka] [--lock-split] [--keep-logs DIR] [--quiet]",
  );
  process.exit(0);
}

function integer(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`--${name} must be an integer in [${min}, ${max}], got ${text}`);
    process.exit(2);
  }
  return n;
}

const runs = integer("runs", values.runs, 1, 1_000_000);
const first = integer("seed", values.seed, 0, 2 ** 32 - 1 - runs);
const options: ScenarioOptions = { heights: integer("heights", values.heights, 1, 100_000) };
if (values.validators !== undefined) options.validators = integer("validators", values.validators, 4, 7);
if (values.kind !== undefined) {
  if (!(SCENARIO_KINDS as readonly string[]).includes(values.kind)) {
    console.error(`--kind must be one of ${SCENARIO_KINDS.join(", ")}`);
    process.exit(2);
  }
  options.kind = values.kind as ScenarioKind;
}
if (values["split-votes"]) options.splitVotes = true;
if (values["break-rule"] !== undefined) {
  if (values["break-rule"] !== "ignore-lock" && values["break-rule"] !== "precommit-without-polka") {
    console.error("--break-rule must be ignore-lock or precommit-without-polka");
    process.exit(2);
  }
  options.breakRule = values["break-rule"] as TestOnlyBrokenRule;
}

/** The command that reruns exactly `seed` with the options of this invocation. */
function rerunCommand(seed: number): string {
  const flags = [`--runs 1 --seed ${seed}`, `--heights ${options.heights}`];
  if (options.validators !== undefined) flags.push(`--validators ${options.validators}`);
  if (options.kind !== undefined) flags.push(`--kind ${options.kind}`);
  if (options.splitVotes) flags.push("--split-votes");
  if (options.breakRule) flags.push(`--break-rule ${options.breakRule}`);
  if (values["lock-split"]) flags.push("--lock-split");
  return `npm run sim -- ${flags.join(" ")}`;
}

// Read before the first run: the code loaded is the code of this moment, not of when a run fails.
const code = codeVersion();
console.log(`code: ${describeCodeVersion(code)}`);

const failed: number[] = [];
let heights = 0;
let cpuMicros = 0;
let virtualMs = 0;
let doubleVoters = 0;
let convicted = 0;
let restarts = 0;
const started = Date.now();
for (let seed = first; seed < first + runs; seed++) {
  const scenario: Scenario = values["lock-split"]
    ? lockSplitScenario(seed, options)
    : scenarioFromSeed(seed, options);
  const cpu = process.cpuUsage();
  const outcome = runCheckedSimulation(scenario);
  const used = process.cpuUsage(cpu);
  cpuMicros += used.user + used.system;
  virtualMs += outcome.virtualMs;
  doubleVoters += outcome.stats.doubleVoters;
  convicted += outcome.stats.convicted;
  restarts += outcome.stats.restarts;
  // Heights simulated: the highest any validator executed.
  let highest = 0n;
  for (const h of outcome.executedHeights) if (h > highest) highest = h;
  heights += Number(highest);
  const ms = ((used.user + used.system) / 1000).toFixed(0);
  const fingerprint = shortFingerprint(runFingerprint(outcome.nodes.map((n) => n.log)));
  if (outcome.ok) {
    if (!values.quiet)
      console.log(
        `ok   seed ${seed} ${scenario.kind} ${scenario.validators}v: ${scenario.heights} heights in ${(outcome.virtualMs / 1000).toFixed(1)} s virtual, ${ms} ms CPU, run ${fingerprint}`,
      );
    continue;
  }
  failed.push(seed);
  const dir = keepFailedRun(outcome, rerunCommand(seed), values["keep-logs"], code);
  console.log(`FAIL seed ${seed}: ${describeScenario(scenario)} (run ${fingerprint})`);
  for (const f of outcome.failures) console.log(`     ${f.split("\n")[0]}`);
  console.log(`     logs kept in ${dir}\n     rerun: ${rerunCommand(seed)}`);
}

const cpuSeconds = cpuMicros / 1e6;
console.log(
  `\n${runs - failed.length}/${runs} runs passed (seeds ${first}..${first + runs - 1}); ` +
    `${(virtualMs / 1000).toFixed(0)} s virtual in ${cpuSeconds.toFixed(1)} s CPU (${((Date.now() - started) / 1000).toFixed(1)} s wall), ` +
    `${(heights / Math.max(cpuSeconds, 1e-9)).toFixed(1)} heights per CPU-second`,
);
console.log(
  `${restarts} crash-restarts; ${doubleVoters} double-voting validators, ${convicted} of them named by committed evidence`,
);
if (failed.length > 0) {
  console.log(`failed seeds: ${failed.join(" ")}`);
  process.exit(1);
}
