// The main thread's long turns in a V8 CPU profile (load.bench.ts with LOAD_PROF): walks the
// samples in time order and cuts them into the event loop's iterations (see the stretches below),
// since a request that arrives during one waits for the loop's next poll before it is read. That wait is most of broadcast_tx_async's latency
// (it is answered before CheckTx), so the stretches over --over ms are what its p99 is made of.
// For each such stretch: its length, its dominant stage (profile-stage-rules.mjs; GC is a stage of
// its own), the job it ran (the outermost frame of ours, e.g. the commit's async function) and the
// innermost frames of ours that filled it. Totals per second of the window (--from/--to seconds
// after the first sample; default the busiest contiguous stretch of seconds, the load) by stage.
// The sampler lengthens turns a little (~1 %): compare a profiled run's wrk p99 with an unprofiled one's.
//   node test/bench/long-turns.mjs PROFILE [--over 20] [--from S --to S] [--list 15] [--timeline] [--busy]
import { parseArgs } from "node:util";
import { readCpuProfile } from "./cpu-profile-read.mjs";
import { stageOf } from "./profile-stage-rules.mjs";
import { where } from "./profile-where.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    over: { type: "string", default: "20" },
    from: { type: "string" },
    to: { type: "string" },
    list: { type: "string", default: "15" },
    timeline: { type: "boolean", default: false },
    busy: { type: "boolean", default: false },
  },
});
if (positionals.length !== 1) {
  console.error("usage: long-turns.mjs PROFILE [--over MS] [--from S --to S] [--list N] [--timeline]");
  process.exit(2);
}
const overMs = Number(values.over);
const { profile, byId, parentOf } = readCpuProfile(positionals[0]);
const ours = (frame) => /\/(src|streams)\//.test(frame.url) && !frame.url.includes("/node_modules/");
const label = (frame) => `${frame.functionName || "(anonymous)"} ${where(frame.url)}`;

// Each sample: its time (µs after the first), its length (the delta to the next sample), stage,
// the outermost and innermost frames of ours. Stacks are cached per node id.
const perNode = new Map();
function describe(id) {
  let d = perNode.get(id);
  if (d) return d;
  const stack = [];
  for (let at = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at).callFrame);
  const mine = stack.filter(ours);
  // The event loop's phase the sample ran in, from the frame under "(root)": the check phase runs
  // the immediates (processImmediate), the timers phase processTimers; GC and "(program)" belong to
  // whichever phase they interrupt; anything else is the poll phase (an I/O callback, e.g. a uWS
  // request, and the microtasks it left).
  const outer = stack.length >= 2 ? stack[stack.length - 2].functionName : "";
  const phase =
    outer === "processImmediate"
      ? "check"
      : outer === "processTimers" || outer === "listOnTimeout"
        ? "timers"
        : stack[0].functionName === "(garbage collector)" || stack[0].functionName === "(program)"
          ? "any"
          : "poll";
  d = {
    phase,
    idle: stack[0].functionName === "(idle)",
    stage: stageOf(stack),
    job: mine.length ? label(mine[mine.length - 1]) : label(stack[0]),
    inner: mine.length ? label(mine[0]) : label(stack[0]),
  };
  perNode.set(id, d);
  return d;
}
const { samples, timeDeltas } = profile;
const t = new Float64Array(samples.length);
for (let i = 1; i < samples.length; i++) t[i] = t[i - 1] + (timeDeltas[i] ?? 0);
const lengthOf = (i) => (i + 1 < samples.length ? (timeDeltas[i + 1] ?? 0) : 0);

// Busy share per whole second, to find the load's window when none is given.
const seconds = Math.ceil(t[t.length - 1] / 1e6) + 1;
const busyPerSecond = new Float64Array(seconds);
for (let i = 0; i < samples.length; i++)
  if (!describe(samples[i]).idle) busyPerSecond[Math.floor(t[i] / 1e6)] += lengthOf(i);
let from = values.from === undefined ? undefined : Number(values.from);
let to = values.to === undefined ? undefined : Number(values.to);
if (from === undefined || to === undefined) {
  // The longest run of seconds each over 25 % busy: the load phase of the bench (its async phase,
  // the first and longest; the sync phase after it is shorter).
  let best = [0, 0];
  for (let s = 0; s < seconds; ) {
    if (busyPerSecond[s] < 2.5e5) {
      s++;
      continue;
    }
    let e = s;
    while (e < seconds && busyPerSecond[e] >= 2.5e5) e++;
    if (e - s > best[1] - best[0]) best = [s, e];
    s = e;
  }
  from ??= best[0];
  to ??= best[1];
}
if (values.timeline)
  console.log(
    `busy ms per second: ${[...busyPerSecond].map((us, s) => `${s}:${Math.round(us / 1000)}`).join(" ")}`,
  );

// The stretches inside the window. By default a stretch is one iteration of the event loop as far
// as samples show it: it ends at an idle sample (the loop waited for I/O) or where a poll-phase
// sample follows a check- or timers-phase one (the loop went round and polled: a request waiting
// was read then). A poll with nothing ready between two check phases leaves no sample, so two
// iterations can read as one: an upper bound of a turn. --busy cuts at idle samples only (a busy
// stretch: every turn in it with no wait for I/O between them).
const stretches = [];
let open;
let lastPhase = "any";
for (let i = 0; i < samples.length; i++) {
  const d = describe(samples[i]);
  const inWindow = t[i] >= from * 1e6 && t[i] < to * 1e6;
  const wrapped = !values.busy && d.phase === "poll" && (lastPhase === "check" || lastPhase === "timers");
  if (d.phase !== "any") lastPhase = d.phase;
  if (d.idle || !inWindow || wrapped) {
    if (open) stretches.push(open);
    open = undefined;
    if (d.idle || !inWindow) continue;
  }
  open ??= { start: t[i], us: 0, stages: new Map(), jobs: new Map(), inner: new Map() };
  const us = lengthOf(i);
  open.us += us;
  for (const [m, k] of [
    [open.stages, d.stage],
    [open.jobs, d.job],
    [open.inner, d.inner],
  ])
    m.set(k, (m.get(k) ?? 0) + us);
}
if (open) stretches.push(open);

const ms = (us) => (us / 1000).toFixed(1);
const top = (m, n) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => `${k} ${ms(us)}`)
    .join("; ");
const dominant = (m) => [...m].sort((a, b) => b[1] - a[1])[0][0];
const span = to - from;
const busyUs = stretches.reduce((a, s) => a + s.us, 0);
console.log(
  `window ${from}–${to} s of the profile (${span} s), busy ${ms(busyUs)} ms (${((busyUs / (span * 1e6)) * 100).toFixed(0)} %)`,
);
for (const limit of [10, overMs]) {
  const long = stretches.filter((s) => s.us > limit * 1000);
  const sum = long.reduce((a, s) => a + s.us, 0);
  console.log(
    `turns > ${limit} ms: ${long.length} (${(long.length / span).toFixed(2)}/s), ${ms(sum)} ms (${(sum / 1000 / span).toFixed(1)} ms/s), longest ${ms(Math.max(0, ...long.map((s) => s.us)))} ms`,
  );
}
const long = stretches.filter((s) => s.us > overMs * 1000);
// By dominant stage (the stretch counted once), and every long stretch's ms split by stage.
const byDominant = new Map();
const byStage = new Map();
for (const s of long) {
  const k = dominant(s.stages);
  const e = byDominant.get(k) ?? { n: 0, us: 0, each: [] };
  e.n++;
  e.us += s.us;
  e.each.push(s.us);
  byDominant.set(k, e);
  for (const [stage, us] of s.stages) byStage.set(stage, (byStage.get(stage) ?? 0) + us);
}
console.log(
  `\nturns > ${overMs} ms by dominant stage: count, ms, median and longest ms | their ms by stage:`,
);
const stageNames = new Set([...byDominant.keys(), ...byStage.keys()]);
for (const k of [...stageNames].sort((a, b) => (byStage.get(b) ?? 0) - (byStage.get(a) ?? 0))) {
  const e = byDominant.get(k) ?? { n: 0, us: 0, each: [] };
  const each = [...e.each].sort((a, b) => a - b);
  const median = each.length ? each[Math.floor(each.length / 2)] : 0;
  const longest = each.length ? each[each.length - 1] : 0;
  console.log(
    `  ${k.padEnd(34)} ${String(e.n).padStart(4)} ${ms(e.us).padStart(8)} ${ms(median).padStart(6)} ${ms(longest).padStart(6)} | ${ms(byStage.get(k) ?? 0).padStart(8)}`,
  );
}
// The jobs and inner frames of ours summed over the long stretches.
const jobs = new Map();
const inner = new Map();
for (const s of long) {
  for (const [k, us] of s.jobs) jobs.set(k, (jobs.get(k) ?? 0) + us);
  for (const [k, us] of s.inner) inner.set(k, (inner.get(k) ?? 0) + us);
}
console.log(
  `\njobs (outermost frame of ours) in turns > ${overMs} ms: ${top(jobs, 15).split("; ").join("\n  ")}`,
);
console.log(`\ninnermost frames of ours in turns > ${overMs} ms: ${top(inner, 20).split("; ").join("\n  ")}`);
console.log(`\nthe ${values.list} longest:`);
for (const s of [...long].sort((a, b) => b.us - a.us).slice(0, Number(values.list)))
  console.log(
    `  at ${(s.start / 1e6).toFixed(2)} s ${ms(s.us)} ms: ${top(s.stages, 3)}\n      jobs: ${top(s.jobs, 3)}\n      inner: ${top(s.inner, 3)}`,
  );
