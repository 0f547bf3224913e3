// `rxbft replay` over a home: the reducer's initial state from config.toml and the validator key's
// address (no signing), then replayLog over data/cs.wal/, with one line per decided height.
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { NodeConfig } from "../src/config/config-schema.js";
import type { NodePaths } from "../src/config/home.js";
import { roundStepName } from "../src/consensus/round-step.js";
import { initialConsensusState } from "../src/consensus/state.js";
import { readPrivValidatorKey } from "../src/types/key-file-priv-validator.js";
import { consensusConfigOf } from "./node-config.js";
import { upperHex } from "./projections/event-bus.js";
import { replayLog } from "./replay-log.js";

/** Replays; `print` gets one line per height; resolves to the summary line. */
export async function replayHome(
  paths: NodePaths,
  config: NodeConfig,
  print: (line: string) => void,
): Promise<string> {
  const ownAddress = existsSync(paths.privValidatorKeyFile)
    ? readPrivValidatorKey(paths.privValidatorKeyFile).address
    : undefined;
  const initial = initialConsensusState({
    config: consensusConfigOf(config),
    ...(ownAddress ? { ownAddress } : {}),
  });
  const walDir = dirname(paths.walFile);
  const started = Date.now();
  const s = await replayLog(walDir, {
    initial,
    onHeight: (o) =>
      print(
        `height ${o.height} round ${o.round} block ${upperHex(o.blockHash)} txs ${o.txs} inputs ${o.inputs}`,
      ),
  });
  const f = s.finalState;
  const at = f.started ? `height ${f.height} round ${f.round} step ${roundStepName(f.step)}` : "not started";
  const parts = [
    `replayed ${s.inputs} inputs from ${walDir} in ${Date.now() - started} ms`,
    `${s.heights} heights decided`,
    `${s.starts} starts`,
    `${s.endMarkers} end-of-height markers`,
    `ends at ${at}`,
  ];
  if (f.halted !== undefined) parts.push(`halted: ${f.halted}`);
  if (s.tornTail !== undefined) parts.push(`torn last record at ${s.tornTail}`);
  return parts.join("; ");
}
