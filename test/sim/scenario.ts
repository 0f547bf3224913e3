// A run's scenario: everything that differs between runs, drawn from the seed alone (so the seed
// is the whole reproduction recipe) or written by hand for scripted tests.
import type { ConsensusConfig, TestOnlyBrokenRule } from "../../src/consensus/config.js";
import { Prng } from "./prng.js";

/**
 * "double-prevote" / "double-precommit": in every round, sign a second vote of that type for
 * another BlockID and send it to the peers that already hold the first (so the conflict is seen
 * and reported, and everyone counts the same version). "split-prevote" / "split-precommit": send
 * the two versions to different peers, so honest validators first count different versions (the
 * vote keeper counts both, each toward its own value). Generated scenarios split on odd seeds.
 */
export type ByzantineBehaviour =
  | "double-prevote"
  | "double-precommit"
  | "split-prevote"
  | "split-precommit"
  | "double-proposal"
  | "silence";

export interface Partition {
  /** Validators (by node index) on each side; links between sides are down. */
  readonly sides: readonly (readonly number[])[];
  readonly fromMs: number;
  readonly untilMs: number;
}

export interface Crash {
  readonly node: number;
  readonly atMs: number;
  readonly downMs: number;
}

export interface NetworkFaults {
  /** Until `healAtMs`: chance a message is lost, chance it arrives twice. */
  readonly drop: number;
  readonly duplicate: number;
  /** Delay of every message, uniform in [min, max] ms (so messages overtake each other). */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** After this, nothing is lost and partitions are over; delays stay. */
  readonly healAtMs: number;
}

/** A hand-written fault for one height: see lock-split.ts. */
export interface LockSplitScript {
  readonly kind: "lock-split";
  readonly height: bigint;
}

export interface Scenario {
  readonly seed: number;
  /** A short label of the fault mix (printed with failures). */
  readonly kind: string;
  readonly validators: number;
  /** Voting power of each node's validator. */
  readonly powers: readonly bigint[];
  /** Every honest validator must commit this many heights. */
  readonly heights: number;
  readonly config: Partial<ConsensusConfig>;
  readonly network: NetworkFaults;
  readonly partitions: readonly Partition[];
  readonly crashes: readonly Crash[];
  readonly byzantine: readonly {
    readonly node: number;
    readonly behaviours: readonly ByzantineBehaviour[];
  }[];
  /** Byzantine validators stop misbehaving after this height, so evidence has time to be committed. */
  readonly byzantineUntilHeight: number;
  readonly script?: LockSplitScript;
  /** Period of each validator's gossip (re-sending what peers lack). */
  readonly gossipEveryMs: number;
}

export interface ScenarioOptions {
  validators?: number;
  heights?: number;
  kind?: ScenarioKind;
  /** Double voters split their two versions between peers (true), never (false), or on odd seeds. */
  splitVotes?: boolean;
  /** Every validator runs with this rule broken (src/consensus config.testOnlyBreakRule). */
  breakRule?: TestOnlyBrokenRule;
}

export const SCENARIO_KINDS = [
  "calm",
  "lossy",
  "partition",
  "crash",
  "byzantine",
  "mixed",
  "lock-split",
] as const;
export type ScenarioKind = (typeof SCENARIO_KINDS)[number];

/** Largest total power of byzantine validators that keeps it below a third of the total. */
function byzantineBudget(powers: readonly bigint[]): bigint {
  const total = powers.reduce((a, b) => a + b, 0n);
  return (total - 1n) / 3n;
}

export function scenarioFromSeed(seed: number, options: ScenarioOptions = {}): Scenario {
  const kind = options.kind ?? SCENARIO_KINDS[seed % SCENARIO_KINDS.length]!;
  if (kind === "lock-split") {
    const prng = new Prng(seed).fork("lock-split");
    return lockSplitScenario(seed, {
      ...options,
      validators: options.validators ?? prng.int(4, 7),
      height: BigInt(prng.int(1, 8)),
      healAtMs: prng.int(30, 45) * 1000,
    });
  }
  const prng = new Prng(seed).fork("scenario");
  const validators = options.validators ?? prng.int(4, 7);
  const heights = options.heights ?? 30;
  const equal = prng.chance(0.7);
  const powers = Array.from({ length: validators }, () => (equal ? 10n : BigInt(prng.int(5, 20))));
  const healAtMs = prng.int(8, 30) * 1000;
  const faulty = kind !== "calm";
  const network: NetworkFaults = {
    drop: kind === "lossy" || kind === "mixed" ? prng.int(5, 30) / 100 : faulty ? prng.int(0, 5) / 100 : 0,
    duplicate: faulty ? prng.int(0, 20) / 100 : 0,
    minDelayMs: prng.int(1, 20),
    maxDelayMs: prng.int(30, kind === "calm" ? 100 : 600),
    healAtMs: faulty ? healAtMs : 0,
  };

  const partitions: Partition[] = [];
  if (kind === "partition" || kind === "mixed") {
    const count = prng.int(1, 2);
    for (let p = 0; p < count; p++) {
      const order = prng.shuffle([...Array(validators).keys()]);
      const cut = prng.int(1, validators - 1);
      const fromMs = prng.int(0, healAtMs - 3000);
      partitions.push({
        sides: [order.slice(0, cut).sort((a, b) => a - b), order.slice(cut).sort((a, b) => a - b)],
        fromMs,
        untilMs: prng.int(fromMs + 2000, healAtMs),
      });
    }
  }

  const byzantine: { node: number; behaviours: ByzantineBehaviour[] }[] = [];
  if (kind === "byzantine" || kind === "mixed") {
    let budget = byzantineBudget(powers);
    for (const node of prng.shuffle([...Array(validators).keys()])) {
      if (powers[node]! > budget) continue;
      if (byzantine.length > 0 && prng.chance(0.5)) break;
      budget -= powers[node]!;
      const roll = prng.int(0, 4);
      const which = prng.int(0, 2);
      // Split or not is not drawn (the seeds' other draws stay as they were): odd seeds split.
      const split = options.splitVotes ?? seed % 2 === 1;
      const [prevote, precommit]: ByzantineBehaviour[] = split
        ? ["split-prevote", "split-precommit"]
        : ["double-prevote", "double-precommit"];
      const votes = which === 0 ? [prevote!] : which === 1 ? [precommit!] : [prevote!, precommit!];
      const behaviours: ByzantineBehaviour[] =
        roll === 0
          ? ["silence"]
          : roll === 1
            ? ["double-proposal"]
            : roll === 2
              ? [...votes, "double-proposal"]
              : votes;
      byzantine.push({ node, behaviours });
    }
  }

  const crashes: Crash[] = [];
  if (kind === "crash" || kind === "mixed") {
    const honest = [...Array(validators).keys()].filter((n) => !byzantine.some((b) => b.node === n));
    const count = prng.int(1, 2);
    for (const node of prng.shuffle(honest).slice(0, count)) {
      crashes.push({ node, atMs: prng.int(500, healAtMs), downMs: prng.int(200, 8000) });
    }
  }

  return {
    seed,
    kind,
    validators,
    powers,
    heights,
    config: {
      ...configVariant(prng.int(0, 19)),
      ...(options.breakRule ? { testOnlyBreakRule: options.breakRule } : {}),
    },
    network,
    partitions,
    crashes,
    byzantine,
    byzantineUntilHeight: Math.max(1, heights - 12),
    gossipEveryMs: 250,
  };
}

/**
 * v0.34's defaults in 14 of 20 runs; skip_timeout_commit in 3; create_empty_blocks = false in 2;
 * create_empty_blocks_interval = 3 s in 1.
 */
function configVariant(roll: number): Partial<ConsensusConfig> {
  if (roll < 14) return {};
  if (roll < 17) return { skipTimeoutCommit: true };
  if (roll < 19) return { createEmptyBlocks: false };
  return { createEmptyBlocksIntervalMs: 3000 };
}

/** One line naming the scenario's faults. */
export function describeScenario(s: Scenario): string {
  const parts = [
    `seed ${s.seed}`,
    s.kind,
    `${s.validators} validators`,
    `powers ${s.powers.join("/")}`,
    `${s.heights} heights`,
  ];
  if (s.network.drop > 0 || s.network.duplicate > 0)
    parts.push(`drop ${s.network.drop} dup ${s.network.duplicate} until ${s.network.healAtMs} ms`);
  parts.push(`delay ${s.network.minDelayMs}-${s.network.maxDelayMs} ms`);
  for (const p of s.partitions)
    parts.push(`partition ${p.sides.map((side) => side.join(",")).join(" | ")} ${p.fromMs}-${p.untilMs} ms`);
  for (const c of s.crashes) parts.push(`crash v${c.node} at ${c.atMs} ms for ${c.downMs} ms`);
  for (const b of s.byzantine) parts.push(`byzantine v${b.node}: ${b.behaviours.join("+")}`);
  if (s.script) parts.push(`script ${s.script.kind} at height ${s.script.height}`);
  if (Object.keys(s.config).length > 0) parts.push(`config ${JSON.stringify(s.config)}`);
  return parts.join("; ");
}

/**
 * The scripted lock-split run (lock-split.ts): equal validators (4 unless told), the split at
 * `height` (1 unless told) until `healAtMs`, a calm network otherwise.
 */
export function lockSplitScenario(
  seed: number,
  options: ScenarioOptions & { healAtMs?: number; height?: bigint } = {},
): Scenario {
  const prng = new Prng(seed).fork("scenario");
  const healAtMs = options.healAtMs ?? 60_000;
  const validators = options.validators ?? 4;
  return {
    seed,
    kind: "lock-split",
    validators,
    powers: Array.from({ length: validators }, () => 10n),
    heights: options.heights ?? 30,
    config: options.breakRule ? { testOnlyBreakRule: options.breakRule } : {},
    network: { drop: 0, duplicate: 0, minDelayMs: prng.int(1, 10), maxDelayMs: prng.int(20, 60), healAtMs },
    partitions: [],
    crashes: [],
    byzantine: [],
    byzantineUntilHeight: 0,
    script: { kind: "lock-split", height: options.height ?? 1n },
    gossipEveryMs: 250,
  };
}
