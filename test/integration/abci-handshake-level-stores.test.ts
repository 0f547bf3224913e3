// The handshake against the node's real level-backed block and state stores (src/store), which
// satisfy its HandshakeBlockStore / HandshakeStateStore interfaces as they are.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CounterApplication } from "../../src/abci/apps/counter.js";
import { InProcessAbciClient } from "../../src/abci/client/in-process-client.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { handshake } from "../../src/abci/handshake.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { BlockStore } from "../../src/store/block-store.js";
import { openBinaryLevel } from "../../src/store/level-database.js";
import { StateStore } from "../../src/store/state-store.js";
import { blockPartsAndId } from "../../src/types/block.js";
import { makeCommit, makeCommitSig } from "../../src/types/commit.js";
import { ValidatorSet } from "../../src/types/validator-set.js";
import { BlockIDFlag } from "../../src/wire/generated/tendermint/types/types.js";
import { buildBlock, testGenesis } from "../fixtures/abci-test-app/test-chain.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-handshake-level-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("abci handshake on the level stores", () => {
  it("replays a 3-block chain into a restarted in-memory app", async () => {
    const blockDb = await openBinaryLevel(join(dir, "blockstore.db"));
    const stateDb = await openBinaryLevel(join(dir, "state.db"));
    const blockStore = await BlockStore.open(blockDb, { sync: false });
    const stateStore = await StateStore.open(stateDb, {
      sync: false,
      advanceProposerPriority: (set, times) =>
        ValidatorSet.fromProto(set).incrementProposerPriority(Number(times)).toProto(),
    });
    const genesis = testGenesis(2);
    const first = new InProcessAbciClient(new CounterApplication());
    let { state } = await handshake(
      { client: first, genesis, blockStore, stateStore },
      stateFromGenesis(genesis),
    );
    for (let i = 0; i < 3; i++) {
      const { block } = buildBlock(state, { txs: [Uint8Array.of(i)] });
      const { parts, blockId } = blockPartsAndId(block);
      const seenCommit = makeCommit(
        block.header.height,
        0,
        blockId,
        state.validators!.validators.map((v) =>
          makeCommitSig(BlockIDFlag.BLOCK_ID_FLAG_COMMIT, v.address, block.header.time, new Uint8Array(64)),
        ),
      );
      await blockStore.saveBlock({ block, blockId, parts, seenCommit });
      const out = await executeBlock({ consensus: first.consensus }, state, block, blockId);
      await stateStore.save(out.state, out.responses);
      state = out.state;
    }
    const restarted = new InProcessAbciClient(new CounterApplication());
    const out = await handshake({ client: restarted, genesis, blockStore, stateStore }, stateStore.load()!);
    assert.equal(out.replayedBlocks, 3);
    assert.equal(Buffer.from(out.appHash).toString("hex"), "0000000000000003");
    await blockDb.close();
    await stateDb.close();
  });
});
