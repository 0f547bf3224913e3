// A block the handshake replays at start is indexed at once (streams/node.ts reconciles the stores
// again after the handshake): the app crashes while executing a block the node has already
// saved; at the next start the handshake executes that block, and its tx can be found by hash
// before any new height is committed, not only after a later restart.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { firstValueFrom } from "rxjs";
import { filter } from "rxjs/operators";
import type { Application } from "../../src/abci/apps/application.js";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { listenAbci } from "../../src/abci/server/socket-server.js";
import { sha256 } from "../../src/crypto/hash.js";
import type { RequestDeliverTx } from "../../src/wire/generated/tendermint/abci/types.js";
import { startNode } from "../../streams/node.js";
import { freshHome, prepare } from "./streams-node-helpers.js";

const home = freshHome("rxbft-handshake-index-");
after(() => rmSync(home, { recursive: true, force: true }));
const kvstoreDir = join(home, "data", "kvstore.db");
const socket = join(home, "app.sock");
const tx = new TextEncoder().encode("replayed=yes");

/** The kvstore over a socket, crashing (an exception) when asked to deliver `tx`. */
function crashingOn(app: KvstoreApplication): Application {
  return new Proxy(app, {
    get(target, prop, receiver) {
      if (prop === "deliverTx") {
        return (req: RequestDeliverTx) => {
          if (Buffer.from(req.tx).equals(Buffer.from(tx))) throw new Error("app crashed");
          return target.deliverTx(req);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("streams: a block replayed by the handshake", () => {
  it("is indexed at start", async () => {
    // First run: the app dies executing the block with the tx; the block is already saved.
    const app = await KvstoreApplication.open(kvstoreDir);
    const server = await listenAbci(crashingOn(app), { kind: "unix", path: socket });
    const first = prepare(home, { proxy_app: `unix://${socket}` });
    let failedHeight: bigint;
    try {
      const node = await startNode(first, { verifyWorkers: 0, rpc: false });
      await firstValueFrom(node.consensusState$.pipe(filter((s) => s.height >= 2n)));
      void node.mempool.submit(tx);
      const exit = await node.stopped;
      assert.notEqual(exit.exitCode, 0, "the app's crash stops the node");
      failedHeight = node.stores.blockStore.height();
      assert.equal(node.chainState().lastBlockHeight, failedHeight - 1n, "the block was saved, not executed");
    } finally {
      first.lock.release();
      await server.close();
      await app.close();
    }

    // Second run, the in-process kvstore on the same database: the handshake executes the block.
    const second = prepare(home);
    try {
      const node = await startNode(second, { verifyWorkers: 0, rpc: false });
      try {
        // Checked before consensus commits anything new.
        const found = await node.stores.txIndexer.getByHash(sha256(tx));
        assert.ok(found, "the replayed block's tx is indexed");
        assert.equal(found.height, failedHeight);
        assert.equal(found.result?.code, 0);
      } finally {
        await node.stop();
      }
    } finally {
      second.lock.release();
    }
  });
});
