// The node's child loggers, one per module, with Tendermint's module names (the `log_level`
// setting "consensus:debug,*:info" selects by these).
import type { Logger } from "../../src/logger/index.js";

const MODULES = {
  node: "node",
  consensus: "consensus",
  mempool: "mempool",
  state: "state",
  store: "store",
  abci: "proxy",
  wal: "wal",
  privval: "privval",
  rpc: "rpc-server",
  metrics: "metrics",
} as const;

export type ModuleLoggers = Record<keyof typeof MODULES, Logger>;

export function moduleLoggers(logger: Logger): ModuleLoggers {
  return Object.fromEntries(
    Object.entries(MODULES).map(([key, name]) => [key, logger.child(name)]),
  ) as ModuleLoggers;
}
