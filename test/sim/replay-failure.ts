// Replays a kept failed run (failure-log.ts) from its logs alone: each validator's log is folded
// by the node's replay (streams/replay-log.ts, what `rxbft replay` runs: the consensus reducer with
// the restart rule at each later ConsensusStarted), printing the
// blocks each validator decided, where it ended, and whether the replay decided what the run did.
//   node --import tsx test/sim/replay-failure.ts test/sim/failures/<seed>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { roundStepName } from "../../src/consensus/round-step.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import { replayLog as replayWal } from "../../streams/replay-log.js";
import { codeMismatch, codeVersion } from "./code-version.js";
import type { KeptRun } from "./failure-log.js";

export interface ReplayedValidator {
  readonly decided: Map<bigint, string>;
  readonly state: ConsensusState;
  readonly inputs: number;
}

/** Folds one validator's log directory with the node's replay (`rxbft replay`'s fold); `ownAddress` is the validator it signed as. */
export async function replayLog(
  dir: string,
  ownAddress: Uint8Array,
  config = DEFAULT_CONSENSUS_CONFIG,
): Promise<ReplayedValidator> {
  const decided = new Map<bigint, string>();
  const summary = await replayWal(dir, {
    initial: initialConsensusState({ config, ownAddress }),
    // Every fold, re-folds included: a height decided again after a restart is the same decision.
    onStep: (step) => {
      for (const e of step.effects)
        if (e.type === "CommitBlock")
          decided.set(e.height, Buffer.from(e.blockId.hash).toString("hex").toUpperCase());
    },
  });
  return { decided, state: summary.finalState, inputs: summary.inputs };
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node --import tsx test/sim/replay-failure.ts test/sim/failures/<seed>");
    process.exit(2);
  }
  const kept = JSON.parse(readFileSync(join(dir, "scenario.json"), "utf8")) as KeptRun;
  console.log(`failures of the run:\n  ${kept.failures.join("\n  ")}`);
  // A fold by other code than the run's is expected to differ (seeds 10573 and 11434).
  const mismatch = codeMismatch(kept.code, codeVersion());
  if (mismatch !== undefined) console.log(`warning: ${mismatch}`);
  const config = { ...DEFAULT_CONSENSUS_CONFIG, ...kept.scenario.config };
  let same = true;
  for (let i = 0; i < kept.scenario.validators; i++) {
    const address = new Uint8Array(Buffer.from(kept.addresses[i]!, "hex"));
    const replay = await replayLog(join(dir, `v${i}`), address, config);
    if (replay.inputs === 0) {
      console.log(`v${i}: empty log (never started)`);
      continue;
    }
    const s = replay.state;
    console.log(
      `v${i}: ${replay.inputs} inputs; ended at height ${s.height} round ${s.round} ${roundStepName(s.step)}` +
        `${s.halted ? ` (halted: ${s.halted})` : ""}; decided ${replay.decided.size} heights`,
    );
    const recorded = kept.decisions[i] ?? [];
    recorded.forEach((hash, slot) => {
      const again = replay.decided.get(BigInt(slot + 1));
      if (hash && again !== hash) {
        same = false;
        console.log(`  height ${slot + 1}: the run decided ${hash}, the replay ${again ?? "nothing"}`);
      }
    });
  }
  console.log(same ? "the replay decided what the run decided" : "the replay differs from the run");
  process.exit(same ? 0 : 1);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
