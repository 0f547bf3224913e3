import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CounterApplication } from "../../src/abci/apps/counter.js";
import { KvstoreApplication } from "../../src/abci/apps/kvstore.js";
import { NoopApplication } from "../../src/abci/apps/noop.js";
import { responseInitChain } from "../../src/abci/apps/responses.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { AbciError } from "../../src/abci/errors.js";
import { commitBlockOnApp, executeBlock } from "../../src/abci/execute-block.js";
import { handshake } from "../../src/abci/handshake.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { blockHash } from "../../src/types/block.js";
import type { GenesisDoc } from "../../src/types/genesis.js";
import type { RequestInitChain } from "../../src/wire/generated/tendermint/abci/types.js";
import type { State } from "../../src/wire/generated/tendermint/state/types.js";
import { growChain, MemoryBlockStore, MemoryStateStore } from "../fixtures/abci-test-app/memory-stores.js";
import { buildBlock, testGenesis, testKey } from "../fixtures/abci-test-app/test-chain.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const kvDir = () => {
  const d = mkdtempSync(join(tmpdir(), "rxbft-handshake-"));
  dirs.push(d);
  return d;
};

class InitChainSpy extends NoopApplication {
  requests: RequestInitChain[] = [];
  constructor(private readonly answer = responseInitChain()) {
    super();
  }
  override initChain(req: RequestInitChain) {
    this.requests.push(req);
    return this.answer;
  }
}

interface Node {
  genesis: GenesisDoc;
  blocks: MemoryBlockStore;
  states: MemoryStateStore;
  state: State;
}

/** A node that went through the handshake on a fresh kvstore and then committed `height` blocks. */
async function chainOnKvstore(
  height: number,
  txsOf?: (h: bigint) => Uint8Array[],
  dir = kvDir(),
): Promise<Node & { dir: string }> {
  const genesis = testGenesis(2);
  const blocks = new MemoryBlockStore();
  const states = new MemoryStateStore();
  const client = new InProcessAbciClient(await KvstoreApplication.open(dir));
  const { state: s0 } = await handshake(
    { client, genesis, blockStore: blocks, stateStore: states },
    stateFromGenesis(genesis),
  );
  const state = await growChain(client, s0, blocks, states, height, txsOf);
  await client.close();
  return { genesis, blocks, states, state, dir };
}

describe("abci handshake", () => {
  it("fresh chain: Info, then InitChain with genesis, state saved with the empty results hash", async () => {
    const genesis = testGenesis(3, {
      initialHeight: 7n,
      appStateBytes: new TextEncoder().encode('{"x":1}'),
    });
    const app = new InitChainSpy();
    const states = new MemoryStateStore();
    const out = await handshake(
      {
        client: new InProcessAbciClient(app),
        genesis,
        blockStore: new MemoryBlockStore(),
        stateStore: states,
      },
      stateFromGenesis(genesis),
    );
    assert.equal(app.requests.length, 1);
    const req = app.requests[0]!;
    assert.equal(req.chainId, "test-chain");
    assert.equal(req.initialHeight, 7n);
    assert.deepEqual(req.time, genesis.genesisTime);
    assert.equal(new TextDecoder().decode(req.appStateBytes), '{"x":1}');
    assert.equal(req.validators.length, 3);
    assert.equal(req.consensusParams!.block!.maxBytes, 22020096n);
    assert.equal(
      hex(out.state.lastResultsHash),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    assert.equal(states.saves, 1);
    assert.equal(out.replayedBlocks, 0);
  });

  it("fresh chain: validators the app returns from InitChain replace genesis's", async () => {
    const key = testKey(6).publicKey;
    const app = new InitChainSpy(
      responseInitChain({
        validators: [{ pubKey: { sum: { $case: "ed25519", ed25519: key } }, power: 42n }],
      }),
    );
    const genesis = testGenesis(2);
    const out = await handshake(
      {
        client: new InProcessAbciClient(app),
        genesis,
        blockStore: new MemoryBlockStore(),
        stateStore: new MemoryStateStore(),
      },
      stateFromGenesis(genesis),
    );
    assert.equal(out.state.validators!.validators.length, 1);
    assert.equal(out.state.validators!.validators[0]!.votingPower, 42n);
  });

  it("fresh chain: an InitChain app hash differing from genesis's stops with both hashes", async () => {
    const genesis = testGenesis(1, { appHash: Uint8Array.of(0xbb, 0xbb) });
    const app = new InitChainSpy(responseInitChain({ appHash: Uint8Array.of(0xaa, 0xaa) }));
    await assert.rejects(
      handshake(
        {
          client: new InProcessAbciClient(app),
          genesis,
          blockStore: new MemoryBlockStore(),
          stateStore: new MemoryStateStore(),
        },
        stateFromGenesis(genesis),
      ),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_HANDSHAKE_APP_HASH_MISMATCH" &&
        /AAAA/.test(e.message) &&
        /BBBB/.test(e.message),
    );
  });

  it("fresh chain: a genesis app hash the app does not have stops the node", async () => {
    const genesis = testGenesis(1, { appHash: Uint8Array.of(0xbb) });
    await assert.rejects(
      handshake(
        {
          client: new InProcessAbciClient(new InitChainSpy()),
          genesis,
          blockStore: new MemoryBlockStore(),
          stateStore: new MemoryStateStore(),
        },
        stateFromGenesis(genesis),
      ),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_HANDSHAKE_APP_HASH_MISMATCH" &&
        /\(empty\)/.test(e.message) &&
        /BB/.test(e.message),
    );
  });

  it("restart with the app at the node's height: nothing to replay", async () => {
    const node = await chainOnKvstore(3);
    const client = new InProcessAbciClient(await KvstoreApplication.open(node.dir));
    const out = await handshake(
      { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      node.state,
    );
    assert.equal(out.replayedBlocks, 0);
    assert.equal(out.appInfo.lastBlockHeight, 3n);
    assert.equal(hex(out.appHash), hex(node.state.appHash));
    await client.close();
  });

  it("restart with the app one block behind: the missing block is replayed", async () => {
    const node = await chainOnKvstore(3);
    // A second app that saw only the first two blocks.
    const behind = new InProcessAbciClient(await KvstoreApplication.open(kvDir()));
    await behind.consensus.initChain({
      time: node.genesis.genesisTime,
      chainId: "test-chain",
      consensusParams: undefined,
      validators: [],
      appStateBytes: new Uint8Array(),
      initialHeight: 1n,
    });
    for (const h of [1n, 2n]) {
      const block = (await node.blocks.loadBlock(h))!;
      const lastVals = h === 1n ? [] : (await node.states.loadValidators(h - 1n)).validators;
      await commitBlockOnApp(behind.consensus, block, blockHash(block), lastVals, 1n);
    }
    const savesBefore = node.states.saves;
    const out = await handshake(
      { client: behind, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      node.state,
    );
    assert.equal(out.replayedBlocks, 1);
    assert.equal(hex(out.appHash), hex(node.state.appHash));
    assert.equal(node.states.saves, savesBefore, "the state was already right");
    assert.equal(
      (await behind.query.info({ version: "", blockVersion: 0n, p2pVersion: 0n })).lastBlockHeight,
      3n,
    );
    await behind.close();
  });

  it("restart of an in-memory app (counter): InitChain again, then every block replayed", async () => {
    const genesis = testGenesis(2);
    const blocks = new MemoryBlockStore();
    const states = new MemoryStateStore();
    const first = new InProcessAbciClient(new CounterApplication());
    const { state: s0 } = await handshake(
      { client: first, genesis, blockStore: blocks, stateStore: states },
      stateFromGenesis(genesis),
    );
    const s3 = await growChain(first, s0, blocks, states, 3);
    assert.equal(hex(s3.appHash), "0000000000000003");
    const restarted = new InProcessAbciClient(new CounterApplication());
    const out = await handshake({ client: restarted, genesis, blockStore: blocks, stateStore: states }, s3);
    assert.equal(out.replayedBlocks, 3);
    assert.equal(hex(out.appHash), "0000000000000003");
    assert.deepEqual(out.state, s3);
  });

  it("crash after saving a block but before executing it: the block is applied and the state saved", async () => {
    const node = await chainOnKvstore(2);
    const { block, blockId } = buildBlock(node.state, { txs: [new TextEncoder().encode("late=1")] });
    node.blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 1n });
    const client = new InProcessAbciClient(await KvstoreApplication.open(node.dir));
    const out = await handshake(
      { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      node.state,
    );
    assert.equal(out.state.lastBlockHeight, 3n);
    assert.equal(node.states.state!.lastBlockHeight, 3n);
    assert.equal(hex(out.appHash), "0600000000000000");
    await client.close();
  });

  it("crash after the app committed but before the state was saved: rebuilt from saved responses", async () => {
    const node = await chainOnKvstore(2);
    const { block, blockId } = buildBlock(node.state, { txs: [new TextEncoder().encode("late=1")] });
    node.blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 1n });
    const kv = await KvstoreApplication.open(node.dir);
    const client = new InProcessAbciClient(kv);
    await executeBlock(
      {
        consensus: client.consensus,
        saveAbciResponses: async (h, r) => {
          node.states.responses.set(h, r);
        },
      },
      node.state,
      block,
      blockId,
    );
    // (the state after block 3 is not saved: the crash)
    const out = await handshake(
      { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
      node.state,
    );
    assert.equal(out.state.lastBlockHeight, 3n);
    assert.equal(kv.currentState.size, 3n, "the app did not run block 3 twice");
    assert.equal(hex(out.state.appHash), "0600000000000000");
    await client.close();
  });

  it("the same crash without saved responses stops with a clear message", async () => {
    const node = await chainOnKvstore(2);
    const { block, blockId } = buildBlock(node.state, { txs: [] });
    node.blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 0n });
    const client = new InProcessAbciClient(await KvstoreApplication.open(node.dir));
    await executeBlock({ consensus: client.consensus }, node.state, block, blockId);
    await assert.rejects(
      handshake(
        { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
        node.state,
      ),
      (e: unknown) =>
        e instanceof AbciError && e.code === "ABCI_HANDSHAKE_MISSING_DATA" && /height 3/.test(e.message),
    );
    await client.close();
  });

  it("an app with no state and a pruned block store stops the node", async () => {
    const node = await chainOnKvstore(3);
    node.blocks.blocks.delete(1n);
    const client = new InProcessAbciClient(new CounterApplication());
    await assert.rejects(
      handshake(
        { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
        node.state,
      ),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_HANDSHAKE_MISSING_DATA" &&
        /pruned up to height 2/.test(e.message),
    );
  });

  it("an app ahead of the node stops it", async () => {
    const node = await chainOnKvstore(3);
    node.blocks.blocks.delete(3n);
    const stateAt2 = { ...node.state, lastBlockHeight: 2n };
    const client = new InProcessAbciClient(await KvstoreApplication.open(node.dir));
    await assert.rejects(
      handshake(
        { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
        stateAt2,
      ),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_HANDSHAKE_APP_AHEAD" &&
        /3 is higher than the node's 2/.test(e.message),
    );
    await client.close();
  });

  it("an app with a different hash at the same height stops the node with both hashes", async () => {
    const node = await chainOnKvstore(2);
    // Same height, but this app's chain held two pairs per block.
    const enc = new TextEncoder();
    const other = await chainOnKvstore(2, (h) => [enc.encode(`a${h}`), enc.encode(`b${h}`)]);
    const client = new InProcessAbciClient(await KvstoreApplication.open(other.dir));
    await assert.rejects(
      handshake(
        { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
        node.state,
      ),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_HANDSHAKE_APP_HASH_MISMATCH" &&
        /the app has 0800000000000000, the node expects 0400000000000000/.test(e.message),
    );
    await client.close();
  });

  it("an app with a different hash at the state's height stops the node before the stored block runs on it", async () => {
    const node = await chainOnKvstore(2);
    const enc = new TextEncoder();
    const other = await chainOnKvstore(2, (h) => [enc.encode(`a${h}`), enc.encode(`b${h}`)]);
    // Block 3 saved, the node stopped before executing it; the app at height 2 is a foreign one.
    const { block, blockId } = buildBlock(node.state, { txs: [enc.encode("late=1")] });
    node.blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 1n });
    const kv = await KvstoreApplication.open(other.dir);
    const client = new InProcessAbciClient(kv);
    await assert.rejects(
      handshake(
        { client, genesis: node.genesis, blockStore: node.blocks, stateStore: node.states },
        node.state,
      ),
      (e: unknown) =>
        e instanceof AbciError &&
        e.code === "ABCI_HANDSHAKE_APP_HASH_MISMATCH" &&
        /the app has 0800000000000000, the node expects 0400000000000000/.test(e.message),
    );
    assert.equal(kv.currentState.height, 2n, "block 3 was not run on the foreign app");
    await client.close();
  });
});
