// Chooses the ABCI client from proxy_app: an in-process example app by name, otherwise a socket
// address (tcp://host:port, unix:///path).
import { IN_PROCESS_APPS } from "../../config/config-codecs.js";
import type { Application } from "../apps/application.js";
import { CounterApplication } from "../apps/counter.js";
import { KvstoreApplication, type KvstoreOptions } from "../apps/kvstore.js";
import { NoopApplication } from "../apps/noop.js";
import { AbciError } from "../errors.js";
import type { AbciClient } from "./abci-client.js";
import { InProcessAbciClient } from "./in-process-client.js";
import { connectSocketClient, type SocketClientOptions } from "./socket-client.js";

export { IN_PROCESS_APPS };
export type InProcessAppName = (typeof IN_PROCESS_APPS)[number];

export interface CreateClientOptions extends SocketClientOptions {
  /** Where kvstore keeps its database; the node passes <home>/data/kvstore.db. */
  kvstoreDir?: string;
  /** kvstore's retain_height policy (0 keeps every block). */
  retainBlocks?: bigint;
  /** LevelDB's memory bounds for kvstore's database (config.toml's db_* keys). */
  kvstoreLevel?: KvstoreOptions["level"];
}

export function isInProcessApp(proxyApp: string): proxyApp is InProcessAppName {
  return (IN_PROCESS_APPS as readonly string[]).includes(proxyApp);
}

/** Builds one of the example apps by its proxy_app name. */
export async function createExampleApp(
  name: InProcessAppName,
  options: CreateClientOptions = {},
): Promise<Application> {
  switch (name) {
    case "noop":
      return new NoopApplication();
    case "counter":
      return new CounterApplication(false);
    case "counter_serial":
      return new CounterApplication(true);
    case "kvstore":
    case "persistent_kvstore": {
      if (options.kvstoreDir === undefined) {
        throw new AbciError("ABCI_UNKNOWN_APP", `proxy_app ${name} needs a database directory (kvstoreDir)`);
      }
      return KvstoreApplication.open(options.kvstoreDir, {
        validatorTxs: name === "persistent_kvstore",
        retainBlocks: options.retainBlocks ?? 0n,
        ...(options.kvstoreLevel ? { level: options.kvstoreLevel } : {}),
      });
    }
  }
}

export async function createAbciClient(
  proxyApp: string,
  options: CreateClientOptions = {},
): Promise<AbciClient> {
  if (isInProcessApp(proxyApp)) return new InProcessAbciClient(await createExampleApp(proxyApp, options));
  if (/^[a-z_]+$/.test(proxyApp)) {
    throw new AbciError(
      "ABCI_UNKNOWN_APP",
      `proxy_app "${proxyApp}" is not a known app (${IN_PROCESS_APPS.join(", ")}) nor a tcp:// or unix:// address`,
    );
  }
  return connectSocketClient(proxyApp, options);
}
