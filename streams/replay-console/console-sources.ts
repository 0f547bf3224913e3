// What the replay console opens: a home's consensus log (data/cs.wal/, with the node's config and
// validator address), or one validator's log of a recorded simulation run (test/sim/failure-log.ts:
// scenario.json beside v<i>/ directories).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { NodePaths } from "../../src/config/home.js";
import { DEFAULT_CONSENSUS_CONFIG } from "../../src/consensus/config.js";
import { initialConsensusState } from "../../src/consensus/state.js";
import { readPrivValidatorKey } from "../../src/types/key-file-priv-validator.js";
import { consensusConfigOf } from "../node-config.js";
import { NodeError } from "../node-errors.js";
import { ReplayTimeline, readTimelineInputs } from "./replay-timeline.js";

export interface OpenedTimeline {
  timeline: ReplayTimeline;
  /** What was opened, for the console's first line. */
  description: string;
}

export async function openHomeTimeline(
  paths: NodePaths,
  config: NodeConfig,
  snapshotEvery?: number,
): Promise<OpenedTimeline> {
  const ownAddress = existsSync(paths.privValidatorKeyFile)
    ? readPrivValidatorKey(paths.privValidatorKeyFile).address
    : undefined;
  const initial = initialConsensusState({
    config: consensusConfigOf(config),
    ...(ownAddress ? { ownAddress } : {}),
  });
  const walDir = dirname(paths.walFile);
  const read = await readTimelineInputs(walDir);
  return {
    timeline: new ReplayTimeline(read.inputs, read.segmentStarts, initial, snapshotEvery),
    description: `${walDir}: ${read.inputs.length} inputs${read.tornTail ? `; torn last record at ${read.tornTail}` : ""}`,
  };
}

interface KeptScenario {
  scenario: { validators: number; config: object };
  addresses: string[];
  /** The code that ran it (test/sim/code-version.ts); absent in runs kept before it was recorded. */
  code?: { commit: string; modified: boolean; fingerprint: string };
}

/** Which code wrote the kept run: a fold by other code may differ from the run for that alone. */
function writtenBy(code: KeptScenario["code"]): string {
  if (code === undefined) return "code that wrote it not recorded";
  return `written by commit ${code.commit}${code.modified ? " with uncommitted changes" : ""}, sources ${code.fingerprint}; a fold by other code may differ from the run`;
}

export async function openSimulationTimeline(
  runDir: string,
  validator: number,
  snapshotEvery?: number,
): Promise<OpenedTimeline> {
  const file = join(runDir, "scenario.json");
  if (!existsSync(file)) {
    throw new NodeError(
      "NODE_REPLAY_SOURCE",
      `${file}: not found; --sim expects a kept simulation run (a directory with scenario.json and v<i>/ logs)`,
    );
  }
  let kept: KeptScenario;
  try {
    kept = JSON.parse(readFileSync(file, "utf8")) as KeptScenario;
  } catch (error) {
    throw new NodeError("NODE_REPLAY_SOURCE", `${file}: not JSON (${(error as Error).message})`);
  }
  const count = kept.scenario?.validators;
  if (!Number.isInteger(validator) || validator < 0 || validator >= count) {
    throw new NodeError(
      "NODE_REPLAY_SOURCE",
      `--validator ${validator}: the run in ${runDir} has validators 0..${count - 1}`,
    );
  }
  const ownAddress = new Uint8Array(Buffer.from(kept.addresses[validator] ?? "", "hex"));
  const config = { ...DEFAULT_CONSENSUS_CONFIG, ...kept.scenario.config };
  const initial = initialConsensusState({ config, ownAddress });
  const walDir = join(runDir, `v${validator}`);
  const read = await readTimelineInputs(walDir);
  return {
    timeline: new ReplayTimeline(read.inputs, read.segmentStarts, initial, snapshotEvery),
    description: `${walDir} (validator ${validator} of ${count}): ${read.inputs.length} inputs (${writtenBy(kept.code)})`,
  };
}
