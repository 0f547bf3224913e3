// A height's commit (streams/effects/block-commit.ts commitOne) over an app and stores that record
// the order of what happens to them; the block's and the state's writes end when the test says.
import assert from "node:assert/strict";
import { responseDeliverTx } from "../../src/abci/apps/responses.js";
import type { ConsensusConnection } from "../../src/abci/client/abci-client.js";
import { createLogger } from "../../src/logger/index.js";
import { encodeAbciResponses } from "../../src/store/deliver-tx-bytes.js";
import { ABCIResponses } from "../../src/wire/generated/tendermint/state/types.js";
import { type BlockCommitDeps, commitOne } from "../../streams/effects/block-commit.js";
import type { StateSaveTail } from "../../streams/effects/state-save-tail.js";
import { commitBlockOf, genesisChain, TestNode } from "./consensus-harness.js";

const silent = createLogger({ level: "none" });
const tx = (s: string) => new TextEncoder().encode(s);

export function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** commitOne over an app and stores that record the order of what happens to them. */
export function recordingCommit(
  options: { tail?: StateSaveTail; stateWrite?: Promise<void>; markEndHeight?: boolean; txs?: number } = {},
) {
  const order: string[] = [];
  const blockWrite = deferred();
  const consensus = {
    name: "consensus",
    error: undefined,
    beginBlock: async () => {
      order.push("beginBlock");
      return { events: [] };
    },
    deliverTx: async () => responseDeliverTx(),
    endBlock: async () => {
      order.push("endBlock");
      return { validatorUpdates: [], consensusParamUpdates: undefined, events: [] };
    },
    commit: async () => {
      order.push("commit");
      return { data: new Uint8Array(8), retainHeight: 0n };
    },
  } as unknown as ConsensusConnection;
  let stored = 0n;
  const savedResponses: { bytes: Uint8Array; expected: Uint8Array }[] = [];
  const node = new TestNode({ chain: genesisChain([10n]) });
  const deps: BlockCommitDeps = {
    consensus,
    stores: {
      blockStore: {
        height: () => stored,
        saveBlock: async () => {
          order.push("block save started");
          await blockWrite.promise;
          stored = 1n;
          order.push("block saved");
        },
      },
      stateStore: {
        saveABCIResponses: async (_height: bigint, responses: ABCIResponses) => {
          // What the state store writes: the record encoded now, or the one made in pieces before.
          const bytes = encodeAbciResponses(responses);
          savedResponses.push({ bytes, expected: ABCIResponses.encode(responses).finish() });
          order.push("responses saved");
        },
        save: async () => {
          order.push("state save started");
          await options.stateWrite;
          order.push("state saved");
        },
      },
      indexer: { indexHeight: async () => {} },
    } as never,
    chainState: () => node.chain,
    executed: { put: () => {} },
    endHeight: async (h) => {
      order.push(`end-of-height ${h}`);
    },
    blockCommitted: () => {},
    halt: (reason) => assert.fail(reason),
    logger: silent,
    ...(options.tail ? { stateSaves: options.tail } : {}),
    ...(options.markEndHeight
      ? {
          markEndHeight: async (h: bigint) => {
            order.push(`end-of-height ${h} appended, no fsync`);
          },
        }
      : {}),
  };
  const txs = Array.from({ length: options.txs ?? 1 }, (_, i) => tx(`a${i}=1`));
  const held = node.block(0, txs);
  const effect = commitBlockOf(1n, held);
  return {
    order,
    blockWrite,
    savedResponses,
    run: () => commitOne(deps, effect),
    runWith: (more: Partial<BlockCommitDeps>) => commitOne({ ...deps, ...more }, effect),
  };
}
