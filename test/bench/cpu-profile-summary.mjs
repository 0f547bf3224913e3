// Sums a V8 CPU profile (`node --cpu-prof --cpu-prof-dir=DIR …`) the way the simulation's passes
// read them (docs/simulation.md): self time per function and per file, and inclusive time per
// function, counting only samples whose stack passes through the function named by --root (so a
// run's startup, tsx's compile and the warm-up outside it are left out). Prints shares of that
// root's time; a profile covers one thread, so pass the main thread's file (…0.001.cpuprofile).
//   node test/bench/cpu-profile-summary.mjs PROFILE [--root runSimulation] [--top 30]
import { parseArgs } from "node:util";
import { readCpuProfile } from "./cpu-profile-read.mjs";
import { where } from "./profile-where.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { root: { type: "string", default: "runSimulation" }, top: { type: "string", default: "30" } },
});
if (positionals.length !== 1) {
  console.error("usage: cpu-profile-summary.mjs PROFILE [--root FUNCTION] [--top N]");
  process.exit(2);
}
const top = Number(values.top);
const { profile, byId, parentOf } = readCpuProfile(positionals[0]);

const nameOf = (frame) => `${frame.functionName || "(anonymous)"} ${where(frame.url)}`;

const selfById = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfById.set(id, (selfById.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}

const self = new Map();
const selfFile = new Map();
const inclusive = new Map();
let total = 0;
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
for (const [id, us] of selfById) {
  const stack = [];
  for (let at = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at).callFrame);
  if (!stack.some((frame) => frame.functionName === values.root)) continue;
  total += us;
  add(self, nameOf(stack[0]), us);
  add(selfFile, where(stack[0].url) || stack[0].functionName, us);
  // Each function once per sample, however deep its recursion.
  for (const name of new Set(stack.map(nameOf))) add(inclusive, name, us);
}
if (total === 0) {
  console.error(`no samples under a function named ${values.root}`);
  process.exit(1);
}
const table = (title, map) => {
  console.log(`-- ${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `${((100 * us) / total).toFixed(1).padStart(5)}% ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
};
console.log(`${(total / 1000).toFixed(0)} ms of samples under ${values.root}`);
table("self time per function", self);
table("self time per file", selfFile);
table("inclusive time per function", inclusive);
