// What the scripts that read a network's consensus logs share (height-phases.ts,
// part-arrivals.ts): their command line (the nodes' homes, the heights to read as `--from H` /
// `--to H`), the walk over one home's logged steps with each input's time in ms, and the quantile
// they print.
import { loadConfig } from "../../src/config/config-loader.js";
import { type NodePaths, nodePaths } from "../../src/config/home.js";
import { openHomeTimeline } from "../../streams/replay-console/console-sources.js";

export interface HeightRangeArgs {
  readonly homes: string[];
  readonly from: number;
  readonly to: number;
}

/** Homes and height range from argv (without node and the script); throws `usage` when no home is given. */
export function heightRangeArgs(argv: readonly string[], usage: string): HeightRangeArgs {
  const args = argv.slice();
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i < 0 ? undefined : Number(args.splice(i, 2)[1]);
  };
  const from = flag("--from") ?? 4;
  const to = flag("--to") ?? Number.MAX_SAFE_INTEGER;
  if (args.length === 0) throw new Error(`usage: ${usage}`);
  return { homes: args, from, to };
}

/** The q-quantile of xs by rank (NaN when empty). */
export function quantile(xs: number[], q: number): number {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

/** One logged step of a home's consensus log, as the replay timeline gives it. */
export type LoggedStep = ReturnType<Awaited<ReturnType<typeof openHomeTimeline>>["timeline"]["stepFrom"]>;

/**
 * Every step of `home`'s consensus log, in order, with its input's time in ms (the log's stamp);
 * returns the home's paths (e.g. for its node key).
 */
export async function walkLoggedSteps(
  home: string,
  visit: (step: LoggedStep, atMs: number) => void,
): Promise<NodePaths> {
  const { config } = loadConfig(home);
  const paths = nodePaths(home, config);
  const { timeline } = await openHomeTimeline(paths, config);
  let state = timeline.stateAt(0);
  for (let p = 1; p <= timeline.length; p++) {
    const step = timeline.stepFrom(state, p);
    state = step.after;
    visit(step, Number(step.input.time.seconds) * 1000 + step.input.time.nanos / 1e6);
  }
  return paths;
}
