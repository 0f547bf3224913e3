// What one node's main thread ran while its signatures (and its block's validation) waited: a V8
// CPU profile of the node (network.bench.ts NETB_PROFILE) cut at the windows its consensus log
// stamps (the fold that asked → the fold of the answer), and each window's samples summed by stage.
// The profile's clock is V8's monotonic one (CLOCK_MONOTONIC, µs), the log's the wall clock (ms);
// both are read on one machine, so one offset ties them: `Date.now() - hrtime in ms`, taken by
// any process on the machine near the run (the bench's clocks do not step in a minute; NTP slews
// them by far less than a sample).
//
//   node -e 'console.log(Date.now() - Number(process.hrtime.bigint()) / 1e6)'   # the offset
//   node --import tsx test/bench/signature-turns.ts <home> <profile> <offset ms> [--from H] [--to H]
//
// <home> is a copy of the profiled node's config/ and data/cs.wal/ taken while the bench prints its
// phase tables (its homes are removed when it ends). A window is read only where the profile
// covers it whole. "longest turn" is the window's longest run of samples with no idle between
// them (the sampler's 1 ms resolution): what an answer that became ready inside the window could
// have waited behind at most. SIGNATURE_TURNS_WINDOWS=<file> writes the windows as JSON too.
import { writeFileSync } from "node:fs";
import { firstMarksByHeight, heightRangeArgs, quantile, type SigningMark } from "./consensus-log-walk.js";

// The shared readers are plain .mjs with no declarations: imported by a computed name and typed here.
const reader: string = "./cpu-profile-read.mjs";
const rules: string = "./profile-stage-rules.mjs";
const { readCpuProfile } = (await import(reader)) as {
  readCpuProfile(path: string): {
    profile: { startTime: number; samples: number[]; timeDeltas: number[] };
    byId: Map<number, ProfileNode>;
    parentOf: Map<number, number>;
  };
};
const { RULES } = (await import(rules)) as { RULES: [string, RegExp][] };

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

/** The peer path's stages first (the shared rules name none of them), then the shared ones. */
const STAGES: [string, RegExp][] = [
  ["peers' txs (mempool gossip)", /src\/mempool-gossip\/|streams\/reactors\/mempool-gossip/],
  ["consensus gossip", /src\/consensus\/gossip\/|streams\/reactors\/consensus-gossip|peer-consensus/],
  ["p2p (connections, crypto of frames)", /src\/p2p\/|streams\/p2p-|streams\/sources\/peers|effects\/p2p-/],
  ["verify, hash (src/crypto)", /src\/crypto\//],
  ...RULES,
];

function stageOf(stack: CallFrame[]): string {
  const leaf = stack[0]!.functionName;
  if (leaf === "(garbage collector)" || leaf === "(idle)" || leaf === "(program)") return leaf;
  for (const frame of stack) for (const [stage, rule] of STAGES) if (rule.test(frame.url)) return stage;
  return "other";
}

type Kind =
  | "prevote asked → signed"
  | "precommit asked → signed"
  | "proposal asked → signed"
  | "block complete → validated (non-proposer)"
  | "validated → prevote asked (non-proposer)"
  | "NewHeight → block complete (non-proposer)";

interface Window {
  kind: Kind;
  height: number;
  fromMs: number;
  toMs: number;
}

async function windowsOf(home: string, from: number, to: number): Promise<Window[]> {
  const marks = await firstMarksByHeight(home);
  const out: Window[] = [];
  for (const [height, m] of marks) {
    if (height < from || height > to) continue;
    const proposer = m.proposalSignAsked !== undefined;
    const pairs: [Kind, SigningMark, SigningMark][] = [
      ["prevote asked → signed", "prevoteAsked", "prevoteSigned"],
      ["precommit asked → signed", "precommitAsked", "precommitSigned"],
      ["proposal asked → signed", "proposalSignAsked", "proposalSigned"],
    ];
    if (!proposer)
      pairs.push(
        ["NewHeight → block complete (non-proposer)", "newHeight", "blockComplete"],
        ["block complete → validated (non-proposer)", "blockComplete", "blockValidated"],
        ["validated → prevote asked (non-proposer)", "blockValidated", "prevoteAsked"],
      );
    for (const [kind, a, b] of pairs)
      if (m[a] !== undefined && m[b] !== undefined && m[b]! >= m[a]!)
        out.push({ kind, height, fromMs: m[a]!, toMs: m[b]! });
  }
  return out;
}

interface Sample {
  /** wall-clock ms */
  atMs: number;
  ms: number;
  stage: string;
  leaf: string;
}

function samplesOf(path: string, offsetMs: number): Sample[] {
  const { profile, byId, parentOf } = readCpuProfile(path);
  const described = new Map<number, { stage: string; leaf: string }>();
  const describe = (id: number) => {
    let d = described.get(id);
    if (d !== undefined) return d;
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at))
      stack.push(byId.get(at)!.callFrame);
    const ours = stack.find((f) => /\/(src|streams)\//.test(f.url) && !f.url.includes("node_modules"));
    const leaf = ours
      ? `${ours.functionName || "(anonymous)"} ${ours.url.replace(/^.*\/(src|streams)\//, "$1/")}`
      : stack[0]!.functionName;
    d = { stage: stageOf(stack), leaf };
    described.set(id, d);
    return d;
  };
  const out: Sample[] = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    const next = profile.timeDeltas[i + 1] ?? 0;
    const d = describe(profile.samples[i]!);
    out.push({ atMs: t / 1000 + offsetMs, ms: next / 1000, stage: d.stage, leaf: d.leaf });
  }
  return out;
}

function lowerBound(samples: Sample[], atMs: number): number {
  let lo = 0;
  let hi = samples.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid]!.atMs < atMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function main(): Promise<void> {
  const usage = "signature-turns.ts <home> <profile> <offset ms> [--from H] [--to H]";
  const { homes, from, to } = heightRangeArgs(process.argv.slice(2), usage);
  const [home, profilePath, offset] = homes;
  if (
    home === undefined ||
    profilePath === undefined ||
    offset === undefined ||
    !Number.isFinite(Number(offset))
  )
    throw new Error(`usage: ${usage}`);
  const samples = samplesOf(profilePath, Number(offset));
  const first = samples[0]?.atMs ?? 0;
  const last = samples.at(-1)?.atMs ?? 0;
  const windows = (await windowsOf(home, from, to)).filter((w) => w.fromMs >= first && w.toMs <= last);
  console.log(
    `profile ${new Date(first).toISOString()} → ${new Date(last).toISOString()}; ${windows.length} windows inside it`,
  );
  // SIGNATURE_TURNS_WINDOWS=<file>: the windows as JSON too, for a reader of one stage's stacks.
  const dump = process.env.SIGNATURE_TURNS_WINDOWS;
  if (dump !== undefined) writeFileSync(dump, JSON.stringify(windows));
  const kinds = new Map<Kind, Window[]>();
  for (const w of windows) kinds.set(w.kind, [...(kinds.get(w.kind) ?? []), w]);
  for (const [kind, list] of kinds) {
    const byStage = new Map<string, number>();
    const byLeaf = new Map<string, number>();
    const longest: number[] = [];
    const longestStage = new Map<string, number>();
    let total = 0;
    for (const w of list) {
      total += w.toMs - w.fromMs;
      let run = 0;
      let runStages = new Map<string, number>();
      let best = 0;
      let bestStages = new Map<string, number>();
      for (let i = lowerBound(samples, w.fromMs); i < samples.length && samples[i]!.atMs <= w.toMs; i++) {
        const s = samples[i]!;
        byStage.set(s.stage, (byStage.get(s.stage) ?? 0) + s.ms);
        if (s.stage !== "(idle)") byLeaf.set(s.leaf, (byLeaf.get(s.leaf) ?? 0) + s.ms);
        if (s.stage === "(idle)") {
          run = 0;
          runStages = new Map();
        } else {
          run += s.ms;
          runStages.set(s.stage, (runStages.get(s.stage) ?? 0) + s.ms);
          if (run > best) {
            best = run;
            bestStages = new Map(runStages);
          }
        }
      }
      longest.push(best);
      for (const [stage, ms] of bestStages) longestStage.set(stage, (longestStage.get(stage) ?? 0) + ms);
    }
    const n = list.length;
    const spans = list.map((w) => w.toMs - w.fromMs);
    console.log(
      `\n${kind}: n=${n}, window p50 ${quantile(spans, 0.5).toFixed(0)} / p90 ${quantile(spans, 0.9).toFixed(0)} / mean ${(total / n).toFixed(1)} ms; longest turn in it p50 ${quantile(longest, 0.5).toFixed(0)} / p90 ${quantile(longest, 0.9).toFixed(0)} ms`,
    );
    console.log("  mean ms per window by stage (whole window | its longest turn):");
    for (const [stage, ms] of [...byStage].sort((a, b) => b[1] - a[1]))
      console.log(
        `    ${stage.padEnd(40)} ${(ms / n).toFixed(1).padStart(7)} | ${((longestStage.get(stage) ?? 0) / n).toFixed(1).padStart(7)}`,
      );
    console.log("  innermost frames of ours, mean ms per window (top 12, idle left out):");
    for (const [leaf, ms] of [...byLeaf].sort((a, b) => b[1] - a[1]).slice(0, 12))
      console.log(`    ${(ms / n).toFixed(1).padStart(7)}  ${leaf}`);
  }
}

await main();
