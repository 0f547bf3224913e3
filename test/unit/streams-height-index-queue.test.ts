// The node's index queue (streams/effects/height-index-queue.ts) behind the commit: a height is
// queued at the app's Commit, before the mempool drops its txs; BlockExecuted does not wait for
// the index; a reader of the index asked after the mempool update waits for that height and finds
// its txs; the height's results are handed to the event projection before BlockExecuted (its fold
// publishes the events: node-events.ts); the next height's state is saved only after the previous
// height's index.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Subject } from "rxjs";
import type { ConsensusConnection } from "../../src/abci/client/abci-client.js";
import type { ConsensusEffect } from "../../src/consensus/effect.js";
import { buildProposalBlock } from "../../src/consensus/index.js";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { sha256 } from "../../src/crypto/hash.js";
import { createLogger } from "../../src/logger/index.js";
import type { HeightIndexInput } from "../../src/store/indexer/height-index-input.js";
import type { TxResult } from "../../src/wire/generated/tendermint/abci/types.js";
import { blockCommitHandler } from "../../streams/effects/block-commit.js";
import { HeightIndexQueue } from "../../streams/effects/height-index-queue.js";
import { ExecutedBlocks } from "../../streams/projections/node-events.js";
import { okDeliverTx } from "../fixtures/store/chain-fixture.js";
import { commitBlockOf, genesisChain, TestNode } from "./consensus-harness.js";

const silent = createLogger({ level: "none" });
const tx = (s: string) => new TextEncoder().encode(s);
const key = (hash: Uint8Array) => Buffer.from(hash).toString("hex");

const consensus = {
  name: "consensus",
  error: undefined,
  beginBlock: async () => ({ events: [] }),
  deliverTx: async () => okDeliverTx(),
  endBlock: async () => ({ validatorUpdates: [], consensusParamUpdates: undefined, events: [] }),
  commit: async () => ({ data: new Uint8Array(8), retainHeight: 0n }),
} as unknown as ConsensusConnection;

describe("streams: a height's index off the commit's critical path", () => {
  it("answers BlockExecuted before the index, and readers wait for the committed height", async () => {
    const order: string[] = [];
    const indexed = new Map<string, TxResult>();
    const releases: (() => void)[] = [];
    const queue = new HeightIndexQueue({ halt: (reason) => assert.fail(reason), logger: silent });
    const reader = queue.txReader({
      enabled: true,
      getByHash: async (hash) => indexed.get(key(hash)),
      search: async () => ({ total: indexed.size, txs: [...indexed.values()] }),
    });
    const executed = new ExecutedBlocks();
    const put = executed.put.bind(executed);
    executed.put = (height, results) => {
      order.push(`results ${height}`);
      put(height, results);
    };
    let chain = genesisChain([10n]);
    const node = new TestNode({ chain });
    const lookups: Promise<TxResult | undefined>[] = [];
    const effect$ = new Subject<ConsensusEffect>();
    const inputs: ConsensusInput[] = [];
    blockCommitHandler({
      consensus,
      stores: {
        blockStore: { height: () => 0n, saveBlock: async () => {} },
        stateStore: {
          saveABCIResponses: async () => {},
          save: async (s: { lastBlockHeight: bigint }) => {
            order.push(`state ${s.lastBlockHeight}`);
          },
        },
        indexer: {
          indexHeight: (input: HeightIndexInput) =>
            new Promise<void>((resolve) => {
              order.push(`index ${input.height} started`);
              releases.push(() => {
                for (const [index, t] of input.txs.entries()) {
                  indexed.set(key(t.hash ?? sha256(t.tx)), {
                    height: input.height,
                    index,
                    tx: t.tx,
                    result: t.result,
                  });
                }
                order.push(`index ${input.height} written`);
                resolve();
              });
            }),
        },
      } as never,
      indexQueue: queue,
      chainState: () => chain,
      setChainState: (s) => {
        chain = s;
      },
      executed,
      endHeight: async () => {},
      blockCommitted: (block) => {
        order.push(`mempool dropped ${block.header.height}`);
        // A client asks for the tx the moment it left the mempool.
        lookups.push(reader.getByHash(sha256(block.data.txs[0]!)));
      },
      halt: (reason) => assert.fail(reason),
      logger: silent,
    })(effect$).subscribe((input) => {
      inputs.push(input);
      order.push(`BlockExecuted ${(input as { height: bigint }).height}`);
    });

    const one = node.block(0, [tx("a=1"), tx("b=2")]);
    effect$.next(commitBlockOf(1n, one));
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
      assert.ok(check());
    };
    await until(() => inputs.length === 1);
    assert.equal(inputs[0]!.type, "BlockExecuted", "BlockExecuted while height 1 is still being indexed");
    assert.equal(queue.pending, 1);
    let answered = false;
    void lookups[0]!.then(() => {
      answered = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(answered, false, "the reader waits for the height the mempool dropped");

    // Height 2: executed while 1 is being indexed; its state waits for height 1's index.
    const two = buildProposalBlock({
      chain,
      height: 2n,
      proposerAddress: node.validators[0]!.address,
      txs: [tx("c=3")],
      evidence: [],
      lastCommit: {
        height: 1n,
        round: 0,
        blockId: one.blockId,
        signatures: node.validators.map((v) => ({
          blockIdFlag: 2,
          validatorAddress: v.address,
          timestamp: { seconds: one.block.header.time!.seconds + 1n, nanos: 0 },
          signature: new Uint8Array(64),
        })),
      },
    })!;
    effect$.next(commitBlockOf(2n, two));
    await until(() => order.includes("mempool dropped 2"));
    await new Promise((r) => setTimeout(r, 20));
    assert.ok(!order.includes("state 2"), "height 2's state waits for height 1's index");
    releases.shift()!();
    const found = await lookups[0]!;
    assert.equal(found?.height, 1n);
    assert.deepEqual(found?.tx, tx("a=1"));
    await until(() => order.includes("index 2 started"));
    releases.shift()!();
    assert.equal((await lookups[1]!)?.height, 2n);
    await until(() => inputs.length === 2);
    await queue.settled();
    // Height 2's index write, released by the test, races the rest of height 2's commit: nothing
    // orders the two, so it is only required after its start.
    const written2 = order.indexOf("index 2 written");
    assert.ok(written2 > order.indexOf("index 2 started"), `height 2 indexed after its start: ${order}`);
    assert.deepEqual(
      order.filter((step) => step !== "index 2 written"),
      [
        "index 1 started",
        "state 1",
        "results 1",
        "mempool dropped 1",
        "BlockExecuted 1",
        "mempool dropped 2",
        "index 1 written",
        "index 2 started",
        "state 2",
        "results 2",
        "BlockExecuted 2",
      ],
    );
  });
});
