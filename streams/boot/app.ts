// Boot step 2: the app and the handshake. The app is in-process (kvstore, counter, noop) or a
// socket, dialled until it is up (as Tendermint waits for its app) or the start is aborted; any
// of its connections dying halts the node. The handshake brings the app and the stores to the same
// height (replaying saved blocks to the app); a block it executed is indexed at once, not at the
// next restart.
import { join } from "node:path";
import type { AbciClient } from "../../src/abci/client/abci-client.js";
import { type CreateClientOptions, createAbciClient } from "../../src/abci/client/create-client.js";
import { haltOnAbciFailure } from "../../src/abci/halt-on-failure.js";
import { type HandshakeResult, handshake } from "../../src/abci/handshake.js";
import type { Logger } from "../../src/logger/index.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import type { Stores } from "../../src/store/open-stores.js";
import type { ReconcileReport } from "../../src/store/reconcile.js";
import type { GenesisDoc } from "../../src/types/genesis.js";

export interface ConnectAppOptions {
  proxyApp: string;
  dataDir: string;
  /** The in-process kvstore's retain_height policy (0 or absent: keep all). */
  kvstoreRetainBlocks?: bigint;
  /** LevelDB's memory bounds for the in-process kvstore's database. */
  kvstoreLevel?: CreateClientOptions["kvstoreLevel"];
  signal?: AbortSignal;
  logger: Logger;
  /** Called when a connection to the app dies: the node halts with this exit code. */
  halt(reason: string, exitCode: number): void;
}

export async function connectApp(options: ConnectAppOptions): Promise<AbciClient> {
  const client = await createAbciClient(options.proxyApp, {
    kvstoreDir: join(options.dataDir, "kvstore.db"),
    ...(options.kvstoreRetainBlocks ? { retainBlocks: options.kvstoreRetainBlocks } : {}),
    ...(options.kvstoreLevel ? { kvstoreLevel: options.kvstoreLevel } : {}),
    logger: options.logger,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  haltOnAbciFailure(client, options.logger, (h) => options.halt(h.message, h.exitCode));
  return client;
}

/** The handshake; the state consensus starts from is saved when the store had none. */
export async function handshakeApp(
  client: AbciClient,
  genesis: GenesisDoc,
  stores: Stores,
  reconciled: ReconcileReport,
  log: { abci: Logger; store: Logger },
): Promise<HandshakeResult> {
  const startState = stores.stateStore.load() ?? stateFromGenesis(genesis);
  const shaken = await handshake(
    { client, genesis, blockStore: stores.blockStore, stateStore: stores.stateStore, logger: log.abci },
    startState,
  );
  if (stores.stateStore.load() === undefined) await stores.stateStore.save(shaken.state);
  if (reconciled.replayHeight !== undefined || shaken.replayedBlocks > 0) {
    for (const finding of (await stores.reconcile()).findings) log.store.info(finding);
  }
  return shaken;
}
