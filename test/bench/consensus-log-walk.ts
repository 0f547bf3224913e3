// What the scripts that read a network's consensus logs share (height-phases.ts,
// part-arrivals.ts, signature-turns.ts, signature-waits.ts): their command line (the nodes' homes,
// the heights to read as `--from H` / `--to H`), the walk over one home's logged steps with each
// input's time in ms, the first time each height met each mark of its signing path, and the
// quantile they print.
import { loadConfig } from "../../src/config/config-loader.js";
import { type NodePaths, nodePaths } from "../../src/config/home.js";
import { SignedMsgType } from "../../src/wire/generated/tendermint/types/types.js";
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

/** Where a height's signing path is cut (height-phases.ts, signature-turns.ts): each the first time it was met. */
export type SigningMark =
  | "newHeight"
  | "blockComplete"
  | "blockValidated"
  | "proposalSignAsked"
  | "proposalSigned"
  | "prevoteAsked"
  | "prevoteSigned"
  | "precommitAsked"
  | "precommitSigned";

/**
 * Per height of `home`'s log, the first time each signing mark was met, plus the marks `more`
 * adds from the same steps. Round 0 only for the block's completion: a height that went to round 1
 * is a different story, and its later block would read as the first one's.
 */
export async function firstMarksByHeight<M extends string = never>(
  home: string,
  more?: (step: LoggedStep, atMs: number, first: (mark: M) => void) => void,
): Promise<Map<number, Partial<Record<SigningMark | M, number>>>> {
  const byHeight = new Map<number, Partial<Record<SigningMark | M, number>>>();
  await walkLoggedSteps(home, (step, at) => {
    const input = step.input;
    const height = Number(step.before.height);
    const marks: Partial<Record<SigningMark | M, number>> = byHeight.get(height) ?? {};
    byHeight.set(height, marks);
    const first = (m: SigningMark | M) => {
      if (marks[m] === undefined) marks[m] = at;
    };
    if (input.type === "TimeoutElapsed" && step.before.step !== step.after.step && step.after.round === 0)
      first("newHeight");
    if (
      step.before.proposalBlock === undefined &&
      step.after.proposalBlock !== undefined &&
      step.after.round === 0
    )
      first("blockComplete");
    if (input.type === "BlockValidated") first("blockValidated");
    if (input.type === "ProposalSigned") first("proposalSigned");
    if (input.type === "VoteSigned")
      first(input.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevoteSigned" : "precommitSigned");
    for (const e of step.effects) {
      if (e.type === "SignProposal") first("proposalSignAsked");
      if (e.type === "SignVote")
        first(e.vote.type === SignedMsgType.SIGNED_MSG_TYPE_PREVOTE ? "prevoteAsked" : "precommitAsked");
    }
    more?.(step, at, first);
  });
  return byHeight;
}
