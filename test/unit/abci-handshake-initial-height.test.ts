// Restarts of a chain whose genesis initial_height is above 1 (review): the kvstore reports the
// chain's block height, and a crash between saving the first block and saving the state after
// it is recovered like any other height.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { handshake } from "../../src/abci/handshake.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { growChain, MemoryBlockStore, MemoryStateStore } from "../fixtures/abci-test-app/memory-stores.js";
import { buildBlock, testGenesis } from "../fixtures/abci-test-app/test-chain.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const kvDir = () => {
  const d = mkdtempSync(join(tmpdir(), "rxbft-handshake-ih-"));
  dirs.push(d);
  return d;
};

async function freshNode(initialHeight: bigint) {
  const dir = kvDir();
  const genesis = testGenesis(2, { initialHeight });
  const blocks = new MemoryBlockStore();
  const states = new MemoryStateStore();
  const client = new InProcessAbciClient(await KvstoreApplication.open(dir));
  const { state } = await handshake(
    { client, genesis, blockStore: blocks, stateStore: states },
    stateFromGenesis(genesis),
  );
  return { dir, genesis, blocks, states, client, state };
}

describe("handshake with initial_height above 1", () => {
  it("kvstore reports the last block's height, so a restart finds nothing to replay", async () => {
    const node = await freshNode(5n);
    const state = await growChain(node.client, node.state, node.blocks, node.states, 2);
    assert.equal(state.lastBlockHeight, 6n);
    const info = await node.client.query.info({ version: "", blockVersion: 0n, p2pVersion: 0n });
    assert.equal(info.lastBlockHeight, 6n);
    await node.client.close();
    const client = new InProcessAbciClient(await KvstoreApplication.open(node.dir));
    const out = await handshake(
      { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      state,
    );
    assert.equal(out.replayedBlocks, 0);
    assert.equal(out.state.lastBlockHeight, 6n);
    assert.equal(hex(out.appHash), "0400000000000000");
    await client.close();
  });

  it("crash after saving the first block, before executing it: the block is applied", async () => {
    const node = await freshNode(5n);
    const { block, blockId } = buildBlock(node.state, { txs: [new TextEncoder().encode("a=1")] });
    node.blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 1n });
    await node.client.close();
    const client = new InProcessAbciClient(await KvstoreApplication.open(node.dir));
    const out = await handshake(
      { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      node.states.state!,
    );
    assert.equal(out.state.lastBlockHeight, 5n);
    assert.equal(node.states.state!.lastBlockHeight, 5n);
    assert.equal(hex(out.appHash), "0200000000000000");
    await client.close();
  });

  it("crash after the app committed the first block, before the state was saved", async () => {
    const node = await freshNode(5n);
    const { block, blockId } = buildBlock(node.state, { txs: [new TextEncoder().encode("a=1")] });
    node.blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 1n });
    await executeBlock(
      {
        consensus: node.client.consensus,
        saveAbciResponses: async (h, r) => {
          node.states.responses.set(h, r);
        },
      },
      node.states.state!,
      block,
      blockId,
    );
    await node.client.close();
    const kv = await KvstoreApplication.open(node.dir);
    const client = new InProcessAbciClient(kv);
    const out = await handshake(
      { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      node.states.state!,
    );
    assert.equal(out.state.lastBlockHeight, 5n);
    assert.equal(kv.currentState.size, 1n, "the app did not run block 5 twice");
    assert.equal(hex(out.state.appHash), "0200000000000000");
    await client.close();
  });
});
