// Replays a kept failed run (failure-log.ts) from its logs alone: each validator's log is read
// with src/wal's reader and folded through the consensus reducer with the node's restart rule
// (at each later ConsensusStarted, the unfinished height's inputs are folded again), printing the
// blocks each validator decided, where it ended, and whether the replay decided what the run did.
//   node --import tsx test/sim/replay-failure.ts test/sim/failures/<seed>
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import { roundStepName } from "../../src/consensus/round-step.js";
import { type ConsensusState, initialConsensusState } from "../../src/consensus/state.js";
import { readWal } from "../../src/wal/log-reader.js";
import { foldRestart } from "../../streams/restart-fold.js";

export interface ReplayedValidator {
  readonly decided: Map<bigint, string>;
  readonly state: ConsensusState;
  readonly inputs: number;
}

/** Folds one validator's log directory; `ownAddress` is the validator it signed as. */
export async function replayLog(
  dir: string,
  ownAddress: Uint8Array,
  config = DEFAULT_CONSENSUS_CONFIG,
): Promise<ReplayedValidator> {
  const reducer = createConsensusReducer(createDefaultConsensusRules());
  const initial = initialConsensusState({ config, ownAddress });
  let state: ConsensusState | undefined;
  let sinceMarker: ConsensusInput[] = [];
  const decided = new Map<bigint, string>();
  let inputs = 0;
  const note = (effects: readonly { type: string }[]) => {
    for (const e of effects) {
      if (e.type === "CommitBlock") {
        const c = e as unknown as { height: bigint; blockId: { hash: Uint8Array } };
        decided.set(c.height, Buffer.from(c.blockId.hash).toString("hex").toUpperCase());
      }
    }
  };
  for await (const entry of readWal(dir)) {
    if (entry.kind === "end-height") {
      sinceMarker = [];
      continue;
    }
    const input = entry.input as ConsensusInput;
    inputs++;
    if (input.type === "ConsensusStarted") {
      state = foldRestart(reducer, initial, input, sinceMarker, (step) => note(step.effects));
      sinceMarker.push(input);
      continue;
    }
    sinceMarker.push(input);
    const t = reducer(state!, input);
    state = t.state;
    note(t.effects);
  }
  return { decided, state: state!, inputs };
}

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node --import tsx test/sim/replay-failure.ts test/sim/failures/<seed>");
    process.exit(2);
  }
  const kept = JSON.parse(readFileSync(join(dir, "scenario.json"), "utf8")) as {
    scenario: { validators: number; config: object };
    addresses: string[];
    failures: string[];
    decisions: string[][];
  };
  console.log(`failures of the run:\n  ${kept.failures.join("\n  ")}`);
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
