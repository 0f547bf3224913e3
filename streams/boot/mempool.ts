// The mempool boot step: the mempool's loop over the app's mempool connection, behind the lock
// held around the app's Commit (effects/block-commit.ts), so no tx is checked between Commit and
// the mempool's update. Its own exception halts the node.
import type { AbciClient } from "../../src/abci/client/abci-client.js";
import type { NodeConfig } from "../../src/config/config-schema.js";
import type { Logger } from "../../src/logger/index.js";
import { nextTurn } from "../../src/next-turn.js";
import { MempoolCommitLock } from "../effects/block-commit.js";
import { createMempoolNode, type MempoolNode } from "../mempool-node.js";
import { mempoolConfigOf } from "../node-config.js";
import type { NodeLifecycle } from "../node-lifecycle.js";
import type { NodeProjections } from "./projections.js";

export function openMempool(parts: {
  config: NodeConfig;
  height: bigint;
  app: AbciClient;
  projections: NodeProjections;
  life: Pick<NodeLifecycle, "halt">;
  log: { mempool: Logger };
}): { mempool: MempoolNode; mempoolLock: MempoolCommitLock } {
  const mempoolLock = new MempoolCommitLock(parts.app.mempool);
  const mempool = createMempoolNode({
    config: mempoolConfigOf(parts.config),
    height: parts.height,
    connection: mempoolLock.connection,
    events$: parts.projections.events.events$,
    logger: parts.log.mempool,
    onFault: (fault) => parts.life.halt(`the mempool halted on an internal error: ${fault.reason}`),
    // A block's update and its recheck a piece per turn: RPC requests are answered between them.
    betweenPieces: nextTurn,
  });
  return { mempool, mempoolLock };
}
