// The node's mempool over the in-process kvstore, for the mempool benches: a fresh home under the
// system's temporary folder, room for `capacity` txs in the pool and the cache (the benches measure
// admission and gossip, not eviction), quiet logs, and any fault ending the bench.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Subject } from "rxjs";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { createLogger } from "../../src/logger/index.js";
import { DEFAULT_MEMPOOL_CONFIG } from "../../src/mempool/state.js";
import { createMempoolNode } from "../../streams/mempool-node.js";
import type { NodeEvent } from "../../streams/node-handle.js";

export async function kvstoreMempoolNode(name: string, capacity: number) {
  const dir = mkdtempSync(join(tmpdir(), `rxbft-${name}-bench-`));
  const client = new InProcessAbciClient(await KvstoreApplication.open(join(dir, "kv")));
  const mempool = createMempoolNode({
    config: { ...DEFAULT_MEMPOOL_CONFIG, size: capacity, cacheSize: capacity },
    height: 0n,
    connection: client.mempool,
    events$: new Subject<NodeEvent>(),
    logger: createLogger({ level: "none" }),
    onFault: (fault) => {
      throw new Error(fault.reason);
    },
  });
  const running = mempool.start();
  return {
    mempool,
    client,
    async close(): Promise<void> {
      running.unsubscribe();
      await client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A maker of unique kvstore txs (`key<n>=value<n>`), numbered across its calls so that neither the
 * pool nor the cache ever refuses one as seen.
 */
export function freshKvstoreTxs(): (count: number) => Uint8Array[] {
  const enc = new TextEncoder();
  let serial = 0;
  return (count) => Array.from({ length: count }, () => enc.encode(`key${serial}=value${serial++}`));
}
