// The replay console's commands over a timeline (replay-timeline.ts): a cursor at a position,
// moved by input, round or height, forward and back, or to the next input matching a filter; each
// move prints the step that reaches the new position. Text in, text out: the session
// (console-session.ts) only reads lines and writes what this returns.
import { CodedError } from "../../src/coded-error.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { describeRule } from "../../src/consensus/paper-lines.js";
import { roundStepName } from "../../src/consensus/round-step.js";
import { describeEffect, describeInput, stateDiff, stateSummary, timeText } from "./describe-step.js";
import type { ReplayTimeline, TimelineStep } from "./replay-timeline.js";

export const CONSOLE_HELP = [
  "commands (a number after a move repeats it):",
  "  n, next [k]          fold the next input (k inputs)",
  "  b, back [k]          step back one input (k inputs): the state is recomputed from the log",
  "  nr, next-round       go to the first input of the next round (or height)",
  "  br, back-round       go back to the start of this round, or of the previous one",
  "  nh, next-height      go to the first input of the next height",
  "  bh, back-height      go back to the start of this height, or of the previous one",
  "  g, goto <position>   go to a position (0 = before the first input)",
  "  f, find <filter>     go to the next input matching every key=value of the filter:",
  "                       type=VoteReceived validator=<index or address prefix> height=3 round=1",
  "                       rule=L36 (a rule that fired), effect=CommitBlock (an effect produced)",
  "  t, timeline [height] every input of a height (default: the current one) on one line each",
  "  s, show              the step that reached the current position, again",
  "  state                the consensus state at the current position",
  "  h, help              this text",
  "  q, quit              leave",
];

/** Most lines `timeline` prints for one height. */
const MAX_TIMELINE_LINES = 2000;

interface InputFacts {
  type: string;
  height: bigint | undefined;
  round: number | undefined;
  validatorIndex: number | undefined;
  validatorAddress: Uint8Array | undefined;
}

function factsOf(input: ConsensusInput): InputFacts {
  const facts: InputFacts = {
    type: input.type,
    height: undefined,
    round: undefined,
    validatorIndex: undefined,
    validatorAddress: undefined,
  };
  if ("vote" in input) {
    facts.height = input.vote.height;
    facts.round = input.vote.round;
    facts.validatorIndex = input.vote.validatorIndex;
    facts.validatorAddress = input.vote.validatorAddress;
  } else if ("proposal" in input) {
    facts.height = input.proposal.height;
    facts.round = input.proposal.round;
  } else {
    if ("height" in input) facts.height = input.height;
    if ("round" in input) facts.round = input.round;
  }
  return facts;
}

export class ReplayConsole {
  /** The current position: how many inputs are folded. */
  position = 0;

  constructor(readonly timeline: ReplayTimeline) {}

  /** Runs one command line; returns the lines to print, and whether the session goes on. */
  execute(line: string): { output: string[]; quit: boolean } {
    const [word = "", ...args] = line.trim().split(/\s+/);
    const count = () => {
      const k = args[0] === undefined ? 1 : Number(args[0]);
      if (!Number.isInteger(k) || k < 1)
        throw new ConsoleInputError(`expected a positive count, got "${args[0]}"`);
      return k;
    };
    try {
      switch (word) {
        case "":
          return { output: [], quit: false };
        case "q":
        case "quit":
        case "exit":
          return { output: [], quit: true };
        case "h":
        case "help":
        case "?":
          return { output: CONSOLE_HELP, quit: false };
        case "n":
        case "next":
          return this.moveTo(this.position + count());
        case "b":
        case "back":
          return this.moveTo(this.position - count());
        case "nr":
        case "next-round":
          return this.repeat(count(), () => this.nextBoundary(false));
        case "br":
        case "back-round":
          return this.repeat(count(), () => this.previousBoundary(false));
        case "nh":
        case "next-height":
          return this.repeat(count(), () => this.nextBoundary(true));
        case "bh":
        case "back-height":
          return this.repeat(count(), () => this.previousBoundary(true));
        case "g":
        case "goto": {
          const p = Number(args[0]);
          if (!Number.isInteger(p))
            throw new ConsoleInputError(`goto: expected a position, got "${args[0] ?? ""}"`);
          return this.moveTo(p);
        }
        case "f":
        case "find":
          return this.find(args);
        case "t":
        case "timeline":
          return { output: this.timelineOf(args[0]), quit: false };
        case "s":
        case "show":
          return { output: this.show(), quit: false };
        case "state":
          return {
            output: Object.entries(stateSummary(this.timeline.stateAt(this.position))).map(
              ([k, v]) => `  ${k}: ${v}`,
            ),
            quit: false,
          };
        default:
          throw new ConsoleInputError(`unknown command "${word}" (help lists them)`);
      }
    } catch (error) {
      if (error instanceof ConsoleInputError) return { output: [`error: ${error.message}`], quit: false };
      throw error;
    }
  }

  /** The header line of the current position. */
  where(state = this.timeline.stateAt(this.position)): string {
    const p = this.position;
    const s = state;
    return `position ${p}/${this.timeline.length}: height ${s.height} round ${s.round} ${roundStepName(s.step).replace("RoundStep", "")}`;
  }

  private moveTo(p: number): { output: string[]; quit: boolean } {
    const clamped = Math.max(0, Math.min(this.timeline.length, p));
    const note = clamped !== p ? [`(the log has positions 0..${this.timeline.length})`] : [];
    this.position = clamped;
    return { output: [...note, ...this.show()], quit: false };
  }

  private repeat(times: number, target: () => number): { output: string[]; quit: boolean } {
    let p = this.position;
    for (let i = 0; i < times; i++) {
      this.position = target();
      if (this.position === p) break;
      p = this.position;
    }
    return this.moveTo(p);
  }

  /** Positions are grouped by the (height, round) the state is in after them. */
  private key(p: number, byHeight: boolean): string {
    const t = this.timeline;
    return byHeight ? `${t.heights[p]}` : `${t.heights[p]}/${t.rounds[p]}`;
  }

  /** The first position after the current one whose height (or round) differs: the step that enters it. */
  private nextBoundary(byHeight: boolean): number {
    const here = this.key(this.position, byHeight);
    for (let p = this.position + 1; p <= this.timeline.length; p++)
      if (this.key(p, byHeight) !== here) return p;
    return this.timeline.length;
  }

  /** The step that entered the current height (or round); from there, the one before. */
  private previousBoundary(byHeight: boolean): number {
    let p = this.position;
    // At an entry already: start from the position before it.
    if (p > 0 && this.key(p - 1, byHeight) !== this.key(p, byHeight)) p--;
    const here = this.key(p, byHeight);
    while (p > 0 && this.key(p - 1, byHeight) === here) p--;
    return p;
  }

  private find(args: string[]): { output: string[]; quit: boolean } {
    if (args.length === 0)
      throw new ConsoleInputError("find: give at least one key=value (help lists the keys)");
    const tests: ((step: () => TimelineStep, facts: InputFacts) => boolean)[] = args.map((arg) => {
      const eq = arg.indexOf("=");
      const key = arg.slice(0, eq);
      const value = arg.slice(eq + 1);
      if (eq <= 0 || value === "") throw new ConsoleInputError(`find: expected key=value, got "${arg}"`);
      switch (key) {
        case "type":
          return (_s, f) => f.type.toLowerCase() === value.toLowerCase();
        case "height":
          return (_s, f) => f.height !== undefined && f.height.toString() === value;
        case "round":
          return (_s, f) => f.round !== undefined && String(f.round) === value;
        case "validator":
          return (_s, f) =>
            /^\d+$/.test(value)
              ? f.validatorIndex === Number(value)
              : f.validatorAddress !== undefined &&
                Buffer.from(f.validatorAddress).toString("hex").toUpperCase().startsWith(value.toUpperCase());
        case "rule":
          return (s) => s().fired.some((r) => r.toLowerCase() === value.toLowerCase());
        case "effect":
          return (s) => s().effects.some((e) => e.type.toLowerCase() === value.toLowerCase());
        default:
          throw new ConsoleInputError(
            `find: unknown key "${key}" (type, validator, height, round, rule, effect)`,
          );
      }
    });
    const inputs = this.timeline.inputs;
    let state = this.timeline.stateAt(this.position);
    for (let p = this.position + 1; p <= inputs.length; p++) {
      // Walking forward from the current state: one fold per input looked at.
      const step = this.timeline.stepFrom(state, p);
      if (tests.every((t) => t(() => step, factsOf(step.input)))) return this.moveTo(p);
      state = step.after;
    }
    return { output: [`no input after position ${this.position} matches ${args.join(" ")}`], quit: false };
  }

  /** What the step reaching the current position did. */
  show(): string[] {
    const p = this.position;
    if (p === 0) return [this.where(), "  (before the first input: `n` folds it)"];
    const step = this.timeline.stepTo(p);
    const out = [
      this.where(step.after),
      `  input #${p} at ${timeText(step.input.time)}: ${describeInput(step.input)}`,
    ];
    if (step.refolded > 0)
      out.push(`  restart: folded again the ${step.refolded} earlier inputs of the unfinished height`);
    out.push(step.fired.length === 0 ? "  rules: none fired" : "  rules:");
    for (const r of step.fired) out.push(`    ${describeRule(r)}`);
    const diff = stateDiff(step.before, step.after);
    out.push(diff.length === 0 ? "  state: unchanged" : "  state:");
    for (const d of diff) out.push(`    ${d}`);
    out.push(step.effects.length === 0 ? "  effects: none" : "  effects:");
    for (const e of step.effects) out.push(`    ${describeEffect(e)}`);
    return out;
  }

  /** One line per input of a height: position, time, round and step after it, input, rules. */
  private timelineOf(arg: string | undefined): string[] {
    const t = this.timeline;
    const height = arg === undefined ? t.heights[this.position]! : Number(arg);
    if (!Number.isInteger(height)) throw new ConsoleInputError(`timeline: expected a height, got "${arg}"`);
    const out = [`height ${height}:`];
    let state = undefined as ReturnType<ReplayTimeline["stateAt"]> | undefined;
    for (let p = 1; p <= t.length; p++) {
      // An input belongs to the height the state was in before it (BlockExecuted ends a height), but
      // a (re)start belongs to the height it starts.
      const of = t.inputs[p - 1]!.type === "ConsensusStarted" ? t.heights[p] : t.heights[p - 1];
      if (of !== height) {
        if (state !== undefined) break;
        continue;
      }
      if (state === undefined) state = t.stateAt(p - 1);
      const step = t.stepFrom(state, p);
      state = step.after;
      if (out.length > MAX_TIMELINE_LINES) {
        out.push("  … (more: move there and step)");
        break;
      }
      const s = step.after;
      const rules = step.fired.length > 0 ? `  [${step.fired.join(" ")}]` : "";
      out.push(
        `  #${p} ${timeText(step.input.time)} r${s.round} ${roundStepName(s.step).replace("RoundStep", "").padEnd(13)} ${describeInput(step.input)}${rules}`,
      );
    }
    if (state === undefined)
      return [`height ${height} is not in this log (heights ${t.heights[0]}..${t.heights[t.length]})`];
    return out;
  }
}

/** A console line that names no valid move; the session prints it and reads the next line. */
export class ConsoleInputError extends CodedError<"CONSOLE_BAD_INPUT"> {
  constructor(message: string) {
    super("CONSOLE_BAD_INPUT", message);
  }
}
