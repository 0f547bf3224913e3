// The body of `rxbft inspect`: refuse a home whose node runs, snapshot its stores (never opening
// the home's own databases), open the copy, serve the RPC's read routes over it until SIGINT or
// SIGTERM, then remove the copy. Nothing in the home is written.
import { existsSync } from "node:fs";
import { type FlagOverrides, loadConfig } from "../../src/config/config-loader.js";
import { nodePaths } from "../../src/config/home.js";
import { assertHomeUnlocked } from "../../src/config/home-lock.js";
import { createLogger, type LogDestination } from "../../src/logger/index.js";
import { startRpcServer } from "../../src/rpc/server/start.js";
import { openStores } from "../../src/store/open-stores.js";
import { parseGenesisFile } from "../../src/types/genesis.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import { RXBFT_VERSION } from "../../src/version.js";
import { rpcOptionsOf } from "../node-config.js";
import { NodeError } from "../node-errors.js";
import { encoders } from "../projections/rpc-encoders.js";
import { createInspectRpcContext } from "./inspect-context.js";
import { inspectHandle } from "./inspect-handle.js";
import { snapshotStores } from "./store-snapshot.js";

export interface InspectOptions {
  home: string;
  overrides: FlagOverrides;
  flagNames?: Readonly<Record<string, string>>;
  logDestination?: LogDestination;
  /** Resolves to stop serving (default: the first SIGINT or SIGTERM). */
  until?: Promise<unknown>;
}

const advanceProposerPriority = (set: Parameters<typeof ValidatorSet.fromProto>[0], times: bigint) =>
  ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto();

export async function runInspect(options: InspectOptions): Promise<number> {
  const { home } = options;
  const { config, warnings } = loadConfig(home, options.overrides, { flagNames: options.flagNames });
  const logger = createLogger({
    level: config.log_level,
    format: config.log_format,
    destination: options.logDestination,
  });
  const log = logger.child("inspect");
  for (const w of warnings) log.warn(w);
  const paths = nodePaths(home, config);
  if (!existsSync(paths.genesisFile)) {
    throw new NodeError(
      "NODE_START_FAILED",
      `${paths.genesisFile}: no genesis file; is ${home} a node's home?`,
    );
  }
  try {
    assertHomeUnlocked(paths.dataDir, "inspect it");
  } catch (error) {
    throw new NodeError("NODE_INSPECT_RUNNING", `${(error as Error).message} (or query that node's own RPC)`);
  }
  const genesis = parseGenesisFile(paths.genesisFile);
  const snapshot = snapshotStores(paths.dataDir);
  try {
    const stores = await openStores(snapshot.dataDir, {
      indexer: config.tx_index.indexer === "kv" ? "kv" : "null",
      advanceProposerPriority,
    });
    try {
      const node = inspectHandle(config, genesis, paths, stores);
      const server = await startRpcServer(
        rpcOptionsOf(config, home),
        createInspectRpcContext(node, paths.genesisFile),
        {
          logger: logger.child("rpc-server"),
          encoders,
          version: RXBFT_VERSION,
        },
      );
      node.nodeInfo.rpcAddress = server.address;
      log.info("inspect: serving the stores read-only", {
        address: server.address,
        home,
        height: stores.blockStore.height(),
        base: stores.blockStore.base(),
      });
      await (options.until ?? untilSignal());
      log.info("inspect: stopping");
      await server.close();
    } finally {
      await stores.close();
    }
  } finally {
    snapshot.remove();
  }
  return 0;
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off("SIGINT", on);
      process.off("SIGTERM", on);
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}
