// `rxbft replay` over a home: the reducer's initial state from config.toml and the validator key's
// address (no signing), then replayLog over data/cs.wal/, with one line per decided height; with
// --events, every event the node published, as JSON lines (the block events from the stores).
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { NodeConfig } from "../src/config/config-schema.js";
import type { NodePaths } from "../src/config/home.js";
import { roundStepName } from "../src/consensus/round-step.js";
import { initialConsensusState } from "../src/consensus/state.js";
import { openStores } from "../src/store/open-stores.js";
import { readPrivValidatorKey } from "../src/types/key-file-priv-validator.js";
import { snapshotStores } from "./inspect/store-snapshot.js";
import { consensusConfigOf } from "./node-config.js";
import { EventBus, upperHex } from "./projections/event-bus.js";
import { eventJsonLine, executedBlockResults } from "./projections/node-events.js";
import { type ReplayEvents, replayLog } from "./replay-log.js";

/** Replays; `print` gets one line per height; resolves to the summary line. */
export async function replayHome(
  paths: NodePaths,
  config: NodeConfig,
  print: (line: string) => void,
  options: { printEvent?: (line: string) => void } = {},
): Promise<string> {
  if (options.printEvent === undefined) return replayLogOfHome(paths, config, print, undefined);
  const printEvent = options.printEvent;
  // The block events need each block and the app's answers: from a copy of the stores, so a
  // running node's locks are not in the way (as rxbft inspect does).
  const snapshot = snapshotStores(paths.dataDir);
  try {
    const stores = await openStores(snapshot.dataDir, { indexer: "null" });
    try {
      const bus = new EventBus();
      const form = config.rpc.compat === "tendermint" ? "tendermint" : "seed";
      bus.events$.subscribe((event) => printEvent(eventJsonLine(event, form)));
      return await replayLogOfHome(paths, config, print, {
        bus,
        results: async (height) => {
          const block = await stores.blockStore.loadBlock(height);
          const responses = await stores.stateStore.loadABCIResponses(height);
          return block && responses ? executedBlockResults(block, responses) : undefined;
        },
      });
    } finally {
      await stores.close();
    }
  } finally {
    snapshot.remove();
  }
}

async function replayLogOfHome(
  paths: NodePaths,
  config: NodeConfig,
  print: (line: string) => void,
  events: ReplayEvents | undefined,
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
    ...(events ? { events } : {}),
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
