// A node mempool for the streams tests: an app connection that admits every tx (or the one a test
// gives), quiet logs, and any fault failing the test.
import assert from "node:assert/strict";
import { NEVER } from "rxjs";
import type { MempoolConnection } from "../../src/abci/client/abci-client.js";
import { createLogger } from "../../src/logger/index.js";
import { DEFAULT_MEMPOOL_CONFIG } from "../../src/mempool/index.js";
import type { ResponseCheckTx } from "../../src/wire/generated/tendermint/abci/types.js";
import { createMempoolNode, type MempoolNodeOptions } from "../../streams/mempool-node.js";
import type { MempoolGossipDeps } from "../../streams/reactors/mempool-gossip.js";

/** An app connection whose CheckTx admits every tx, one at a time. */
export function admittingConnection(): MempoolConnection {
  return {
    name: "mempool",
    error: undefined,
    echo: async (m) => m,
    flush: async () => {},
    checkTx: async () => ({ code: 0, gasWanted: 0n }) as ResponseCheckTx,
  };
}

/** createMempoolNode at height 1 with default settings unless `options` says otherwise. */
export function testMempoolNode(options: Partial<MempoolNodeOptions> = {}) {
  return createMempoolNode({
    config: DEFAULT_MEMPOOL_CONFIG,
    height: 1n,
    connection: admittingConnection(),
    events$: NEVER,
    logger: createLogger({ level: "none" }),
    onFault: (fault) => assert.fail(fault.reason),
    ...options,
  });
}

/** The mempool gossip reactor's settings for the reactor tests: one tx per message, roomy sends. */
export const TEST_MEMPOOL_GOSSIP_CONFIG: MempoolGossipDeps["config"] = {
  broadcast: true,
  peerGossipSleepMs: 100,
  maxTxBytes: 1024,
  batchTxs: 1,
  batchMessageBytes: 2048,
  messagesPerSend: 64,
  sendBytes: 65536,
  relayHoldMs: 0,
};
