// The mempool around the app's Commit (v0.34's mempool lock, reference §6.4): before Commit the
// mempool connection is flushed; a CheckTx for a new tx arriving during Commit waits until the
// mempool has been told about the block (BlockCommitted), so it is checked against the
// post-commit state; rechecks are not held.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { firstValueFrom, Subject } from "rxjs";
import type { ConsensusConnection, MempoolConnection } from "../../src/abci/client/abci-client.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import { createLogger } from "../../src/logger/index.js";
import {
  CheckTxType,
  type RequestCheckTx,
  type ResponseCheckTx,
} from "../../src/wire/generated/tendermint/abci/types.js";
import { blockCommitHandler, MempoolCommitLock } from "../../streams/effects/block-commit.js";
import { okDeliverTx } from "../fixtures/store/chain-fixture.js";
import { commitBlockOf, genesisChain, TestNode } from "./consensus-harness.js";

const silent = createLogger({ level: "none" });
const tx = (s: string) => new TextEncoder().encode(s);

/** An app whose CheckTx accepts a tx only once the height's Commit has finished. */
function fakeApp() {
  const order: string[] = [];
  let committed = false;
  let release!: () => void;
  const commitReleased = new Promise<void>((r) => {
    release = r;
  });
  let commitStarted!: () => void;
  const inCommit = new Promise<void>((r) => {
    commitStarted = r;
  });
  const consensus = {
    name: "consensus",
    error: undefined,
    beginBlock: async () => ({ events: [] }),
    deliverTx: async () => okDeliverTx(),
    endBlock: async () => ({ validatorUpdates: [], consensusParamUpdates: undefined, events: [] }),
    commit: async () => {
      order.push("commit started");
      commitStarted();
      await commitReleased;
      committed = true;
      order.push("commit done");
      return { data: new Uint8Array(8), retainHeight: 0n };
    },
  } as unknown as ConsensusConnection;
  const mempool: MempoolConnection = {
    name: "mempool",
    error: undefined,
    echo: async (m) => m,
    flush: async () => {
      order.push("mempool flushed");
    },
    checkTx: async (req) => {
      order.push(
        `${req.type === CheckTxType.RECHECK ? "recheck" : "checkTx"} ${committed ? "after" : "before"} commit`,
      );
      return { code: committed ? 0 : 1 } as ResponseCheckTx;
    },
  };
  return { order, consensus, mempool, inCommit, release };
}

describe("streams: the mempool around Commit", () => {
  it("flushes before Commit and holds a tx submitted during Commit until the mempool update", async () => {
    const app = fakeApp();
    const lock = new MempoolCommitLock(app.mempool);
    const node = new TestNode({ chain: genesisChain([10n]) });
    const held = node.block(0, [tx("a=1")]);
    const effect$ = new Subject<ConsensusEffect>();
    const executed = firstValueFrom(
      blockCommitHandler({
        consensus: app.consensus,
        stores: {
          blockStore: { height: () => 1n, saveBlock: async () => {} },
          stateStore: { saveABCIResponses: async () => {}, save: async () => {} },
          indexer: { indexHeight: async () => {} },
        } as never,
        chainState: () => node.chain,
        setChainState: () => {},
        executed: { put: () => {} },
        endHeight: async () => {},
        blockCommitted: (block) => {
          app.order.push(`mempool updated with ${block.data.txs.length} txs`);
          // The update's rechecks are sent while the lock is still held.
          void lock.connection.checkTx({ tx: tx("left=1"), type: CheckTxType.RECHECK });
        },
        mempoolLock: lock,
        halt: (reason) => assert.fail(reason),
        logger: silent,
      })(effect$),
    );
    effect$.next(commitBlockOf(1n, held));
    await app.inCommit;
    const during = lock.connection.checkTx({ tx: tx("b=2"), type: CheckTxType.NEW });
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(!app.order.some((o) => o.startsWith("checkTx")), "no CheckTx while the app commits");
    app.release();
    const answer = await during;
    assert.equal(answer.code, 0, "checked against the post-commit state");
    assert.equal((await executed).type, "BlockExecuted");
    assert.deepEqual(app.order, [
      "mempool flushed",
      "commit started",
      "commit done",
      "mempool updated with 1 txs",
      "recheck after commit",
      "checkTx after commit",
    ]);
    assert.equal(lock.locked, false);
  });

  it("lets CheckTx through when unlocked, and sends the held ones at unlock", async () => {
    const app = fakeApp();
    const lock = new MempoolCommitLock(app.mempool);
    app.release();
    assert.equal((await lock.connection.checkTx({ tx: tx("x"), type: CheckTxType.NEW })).code, 1);
    await lock.lock();
    const held = lock.connection.checkTx({ tx: tx("y"), type: CheckTxType.NEW });
    lock.unlock();
    await held;
    assert.deepEqual(app.order, ["checkTx before commit", "mempool flushed", "checkTx before commit"]);
  });

  it("holds a batch of new txs (checkTxs) while locked and lets a batch of rechecks through", async () => {
    const app = fakeApp();
    const checkTxs = async (reqs: readonly RequestCheckTx[]) => {
      app.order.push(`batch of ${reqs.length} ${reqs[0]!.type === CheckTxType.RECHECK ? "rechecks" : "new"}`);
      return reqs.map(() => ({ code: 0 }) as ResponseCheckTx);
    };
    assert.equal(
      new MempoolCommitLock(app.mempool).connection.checkTxs,
      undefined,
      "only offered if the app's is",
    );
    const lock = new MempoolCommitLock({ ...app.mempool, checkTxs });
    await lock.lock();
    const held = lock.connection.checkTxs!(
      [tx("n1"), tx("n2")].map((t) => ({ tx: t, type: CheckTxType.NEW })),
    );
    await lock.connection.checkTxs!([{ tx: tx("r"), type: CheckTxType.RECHECK }]);
    await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(app.order, ["mempool flushed", "batch of 1 rechecks"], "the new batch waits");
    lock.unlock();
    assert.equal((await held).length, 2);
    assert.deepEqual(app.order, ["mempool flushed", "batch of 1 rechecks", "batch of 2 new"]);
  });
});
