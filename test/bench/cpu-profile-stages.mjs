// Sums a node's main-thread CPU profile (load.bench.ts with LOAD_PROF) by stage of a tx's path:
// RPC admission, the mempool, the log, consensus, execution, the result encoding, the index, the
// block store, the event bus, GC. A sample counts for the stage of the innermost frame of ours
// that a rule names (a frame of node's or of a library, e.g. sha256 or LevelDB's put, is counted
// for the code that called it), so each stage's figure includes what it asked of libraries.
// With --txs N (the run's committed txs) prints µs per committed tx beside the shares. --from/--to
// (seconds after the profile's start) keep only the load's window: the whole profile also holds the
// start, the broadcast_tx_sync and /health phases, whose answers (e.g. uWS's writes of promised
// answers) are not the async load's, so a per-tx figure over the whole profile mixes them in.
//   node test/bench/cpu-profile-stages.mjs PROFILE [--txs N] [--top 12] [--from S --to S]
import { parseArgs } from "node:util";
import { readCpuProfile } from "./cpu-profile-read.mjs";
import { stageOf } from "./profile-stage-rules.mjs";
import { where } from "./profile-where.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    txs: { type: "string" },
    top: { type: "string", default: "12" },
    from: { type: "string" },
    to: { type: "string" },
  },
});
if (positionals.length !== 1) {
  console.error("usage: cpu-profile-stages.mjs PROFILE [--txs N] [--top N] [--from S --to S]");
  process.exit(2);
}
const txs = values.txs === undefined ? undefined : Number(values.txs);
const top = Number(values.top);
const fromUs = values.from === undefined ? 0 : Number(values.from) * 1e6;
const toUs = values.to === undefined ? Number.POSITIVE_INFINITY : Number(values.to) * 1e6;
const { profile, byId, parentOf } = readCpuProfile(positionals[0]);

const stages = new Map();
const selfInStage = new Map();
let busy = 0;
let t = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const us = profile.timeDeltas[i] ?? 0;
  t += us;
  if (t < fromUs || t >= toUs) continue;
  const stack = [];
  for (let at = profile.samples[i]; at !== undefined; at = parentOf.get(at))
    stack.push(byId.get(at).callFrame);
  const stage = stageOf(stack);
  stages.set(stage, (stages.get(stage) ?? 0) + us);
  if (stage !== "(idle)") busy += us;
  const key = `${stage}\t${stack[0].functionName || "(anonymous)"} ${where(stack[0].url)}`;
  selfInStage.set(key, (selfInStage.get(key) ?? 0) + us);
}
const perTx = (us) => (txs ? `${(us / txs).toFixed(2).padStart(7)} µs/tx` : "");
console.log(
  `busy ${(busy / 1000).toFixed(0)} ms (idle ${((stages.get("(idle)") ?? 0) / 1000).toFixed(0)} ms)${txs ? `, ${txs} txs` : ""}`,
);
for (const [stage, us] of [...stages].filter(([s]) => s !== "(idle)").sort((a, b) => b[1] - a[1])) {
  console.log(
    `${((100 * us) / busy).toFixed(1).padStart(5)}% ${(us / 1000).toFixed(0).padStart(6)} ms ${perTx(us)}  ${stage}`,
  );
  const inside = [...selfInStage].filter(([k]) => k.startsWith(`${stage}\t`)).sort((a, b) => b[1] - a[1]);
  for (const [k, fus] of inside.slice(0, top))
    console.log(`        ${((100 * fus) / busy).toFixed(1).padStart(5)}% ${perTx(fus)}  ${k.split("\t")[1]}`);
}
