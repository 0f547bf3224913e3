// One simulated run: N validators on one virtual-time scheduler (rxjs VirtualTimeScheduler, in
// ms since genesis) over the in-memory network, with the scenario's partitions, crashes and
// Byzantine validators, until every honest validator has executed the target height or the
// liveness deadline passes. Returns what was checked and what failed; everything that happened
// is a function of the scenario (and so of the seed).
import { type ConsensusConfig, DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import { lockSplitFilter, lockSplitRoles, validatorsAt } from "./lock-split.js";
import { Prng } from "./prng.js";
import { RunRecord } from "./run-record.js";
import { describeScenario, type Scenario } from "./scenario.js";
import { ByzantineValidator } from "./sim-byzantine.js";
import { genesisState, makeKeys, SharedExecution } from "./sim-chain.js";
import { SimConnections } from "./sim-connections.js";
import { SimNetwork } from "./sim-network.js";
import { SimNode } from "./sim-node.js";
import { MemoVerifier } from "./sim-verify.js";
import { WireCrossing } from "./sim-wire.js";
import { virtualClock } from "./virtual-clock.js";

export interface SimOutcome {
  readonly scenario: Scenario;
  readonly ok: boolean;
  readonly failures: readonly string[];
  /** Virtual ms when the run ended. */
  readonly virtualMs: number;
  /** Per node, the decided block hash of each height (for determinism checks). */
  readonly decisions: readonly (readonly string[])[];
  readonly executedHeights: readonly bigint[];
  /** Inputs folded by all validators together (the log records). */
  readonly inputs: number;
  readonly stats: {
    readonly messages: number;
    readonly lost: number;
    readonly realVerifications: number;
    readonly memoisedVerifications: number;
    readonly restarts: number;
    readonly equivocations: number;
    /** Byzantine validators that sent conflicting votes, and those of them named by committed evidence. */
    readonly doubleVoters: number;
    readonly convicted: number;
  };
  /** The validators, for dumping logs of a failed run. */
  readonly nodes: readonly SimNode[];
}

/** Virtual time allowed after the last disruption: a fixed margin plus a budget per height. */
export function livenessDeadlineMs(s: Scenario): number {
  let last = s.network.healAtMs;
  for (const p of s.partitions) last = Math.max(last, p.untilMs);
  for (const c of s.crashes) last = Math.max(last, c.atMs + c.downMs);
  return last + 60_000 + s.heights * 8_000;
}

const STOP = new Error("the run reached its target");
/** How often broken connections are re-established (virtual ms), as a node's dialer would. */
const RECONNECT_EVERY_MS = 200;

export function runSimulation(scenario: Scenario): SimOutcome {
  const seed = new Prng(scenario.seed);
  const scheduler = virtualClock();
  const keys = makeKeys(seed.fork("keys"), scenario.validators);
  const genesis = genesisState(keys, scenario.powers);
  const config: ConsensusConfig = { ...DEFAULT_CONSENSUS_CONFIG, ...scenario.config };
  const verifier = new MemoVerifier();
  const wire = new WireCrossing();
  const execution = new SharedExecution();
  const byzantineNodes = new Set(scenario.byzantine.map((b) => b.node));
  const record = new RunRecord(
    scenario.validators,
    (n) => !byzantineNodes.has(n),
    BigInt(scenario.byzantineUntilHeight),
  );
  const failures: string[] = [];
  const target = BigInt(scenario.heights);

  const nodes: SimNode[] = [];
  const network = new SimNetwork(
    scheduler,
    seed.fork("network"),
    scenario,
    (to, from, message) => nodes[to]!.deliver(from, message),
    (from, to) => connections.lost(from, to),
  );
  const connections = new SimConnections(nodes, (a, b) => network.linkUp(a, b));
  for (let i = 0; i < scenario.validators; i++) {
    nodes.push(
      new SimNode({
        index: i,
        key: keys[i]!,
        genesis,
        config,
        scheduler,
        verifier,
        mempool: seed.fork(`mempool-${i}`),
        network,
        observer: record,
        executionMs: 3,
        wire,
        execution,
      }),
    );
  }
  const all = [...Array(scenario.validators).keys()];
  const byzantine = scenario.byzantine.map(
    (b) =>
      new ByzantineValidator(
        nodes[b.node]!,
        b.behaviours,
        all.filter((i) => i !== b.node),
        (i) => nodes[i]!,
        network,
        seed.fork(`byzantine-${b.node}`),
        scenario.byzantineUntilHeight,
      ),
  );
  if (scenario.script?.kind === "lock-split") {
    const height = scenario.script.height;
    const roles = lockSplitRoles(keys, validatorsAt(genesis, height), createDefaultConsensusRules());
    network.filter = lockSplitFilter(height, roles, keys, scenario.network.healAtMs);
  }

  // Done once every honest validator executed the target height: stop the clock there.
  const honest = nodes.filter((n) => !byzantineNodes.has(n.index));
  // (VirtualTimeScheduler.flush reads maxFrames once, so a run stops by throwing out of it.)
  let done = false;
  record.onExecuted = () => {
    if (!done && honest.every((n) => record.executedHeight[n.index]! >= target)) {
      done = true;
      throw STOP;
    }
  };

  const silent = new Set(
    scenario.byzantine.filter((b) => b.behaviours.includes("silence")).map((b) => b.node),
  );
  // No rxjs onUnhandledError handler here: rxjs reports an exception thrown in a subscriber through
  // setTimeout, which only fires after the run (and after a handler set here was restored), so it
  // could never add a failure. A checked run (checked-run.ts) fails naming that setTimeout.
  try {
    for (const node of nodes) if (!silent.has(node.index)) node.start();
    for (const node of nodes) if (node.alive) connections.connectAll(node.index);
    for (const c of scenario.crashes) {
      scheduler.schedule(() => {
        nodes[c.node]!.crash();
        connections.crashed(c.node);
      }, c.atMs);
      scheduler.schedule(() => {
        nodes[c.node]!.restart();
        connections.connectAll(c.node);
      }, c.atMs + c.downMs);
    }
    scheduler.schedule(function poll(this: { schedule(state?: unknown, delay?: number): void }) {
      connections.redial();
      this.schedule(undefined, RECONNECT_EVERY_MS);
    }, RECONNECT_EVERY_MS);
    const gossipRng = seed.fork("gossip");
    for (const byz of byzantine) {
      const node = nodes[byz.index]!;
      scheduler.schedule(
        function tick(this: { schedule(state?: unknown, delay?: number): void }) {
          if (node.alive) byz.gossip((to) => nodes[to]!.alive && network.linkUp(node.index, to));
          this.schedule(undefined, scenario.gossipEveryMs);
        },
        gossipRng.int(1, scenario.gossipEveryMs),
      );
    }
    scheduler.maxFrames = livenessDeadlineMs(scenario);
    try {
      scheduler.flush();
    } catch (error) {
      if (error !== STOP)
        failures.push(
          `exception: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
    }
  } finally {
    for (const node of nodes) node.stop();
  }

  failures.push(...record.errors.map((e) => `exception: ${e}`));
  failures.push(...record.violations.map((v) => `safety: ${v}`));
  failures.push(...record.halts.map((h) => `halt: ${h}`));
  failures.push(...record.rejections.slice(0, 5).map((r) => `source step: ${r}`));
  if (!done) {
    const heights = honest.map((n) => `v${n.index}@${record.executedHeight[n.index]}`).join(" ");
    failures.push(
      `liveness: honest validators did not all reach height ${target} by ${scheduler.frame} ms (${heights})`,
    );
  }
  for (const b of byzantine) {
    const address = Buffer.from(nodes[b.index]!.address).toString("hex").toUpperCase();
    const owers = record.owedEvidence.get(address);
    if (owers !== undefined && owers.size > 0 && !record.accused.has(address))
      failures.push(
        `evidence: v${b.index} double-voted (${b.equivocations.length} times; seen by ${[...owers].map((o) => `v${o}`).join(",")}) but no evidence against it was committed`,
      );
  }
  for (const n of honest) {
    if (record.accused.has(Buffer.from(n.address).toString("hex").toUpperCase()))
      failures.push(`evidence: honest v${n.index} was accused in committed evidence`);
  }

  return {
    scenario,
    ok: failures.length === 0,
    failures,
    virtualMs: scheduler.frame,
    decisions: record.decisions,
    executedHeights: record.executedHeight,
    inputs: nodes.reduce((sum, n) => sum + n.log.length, 0),
    stats: {
      messages: network.stats.sent,
      lost: network.stats.lost,
      realVerifications: verifier.real,
      memoisedVerifications: verifier.memoised,
      restarts: nodes.reduce((sum, n) => sum + n.restarts, 0),
      equivocations: byzantine.reduce((sum, b) => sum + b.equivocations.length, 0),
      doubleVoters: byzantine.filter((b) => b.equivocations.length > 0).length,
      convicted: byzantine.filter((b) =>
        record.accused.has(Buffer.from(nodes[b.index]!.address).toString("hex").toUpperCase()),
      ).length,
    },
    nodes,
  };
}

export { describeScenario };
