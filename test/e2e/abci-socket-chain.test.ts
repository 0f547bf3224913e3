// A chain driven over a real socket: the out-of-process test app runs kvstore; the node side does
// the handshake and executes blocks through the socket client; the app is killed mid-run and
// restarted, and the node's state and the app's agree again after a new handshake.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { connectSocketClient } from "../../src/abci/client/socket-client.js";
import { AbciError } from "../../src/abci/errors.js";
import { executeBlock } from "../../src/abci/execute-block.js";
import { haltOnAbciFailure } from "../../src/abci/halt-on-failure.js";
import { handshake } from "../../src/abci/handshake.js";
import { stateFromGenesis } from "../../src/state/genesis-state.js";
import { growChain, MemoryBlockStore, MemoryStateStore } from "../fixtures/abci-test-app/memory-stores.js";
import { startTestApp } from "../fixtures/abci-test-app/process.js";
import { buildBlock, testGenesis } from "../fixtures/abci-test-app/test-chain.js";

const dir = mkdtempSync(join(tmpdir(), "rxbft-abci-chain-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const enc = new TextEncoder();

describe("kvstore over a socket: handshake, blocks, app crash, restart", () => {
  it("executes blocks, halts cleanly when the app dies mid-block, and resyncs after restart", async () => {
    const address = `unix://${join(dir, "kv.sock")}`;
    const appArgs = ["--app", "kvstore", "--kvstore-dir", join(dir, "kvstore.db")];
    const genesis = testGenesis(2);
    const blocks = new MemoryBlockStore();
    const states = new MemoryStateStore();

    // The first app process dies when the 4th Commit arrives (block 4 is mid-execution).
    let app = await startTestApp([`${address}=ok`], [...appArgs, "--crash-on-commit", "4"]);
    let client = await connectSocketClient(address);
    const first = await handshake(
      { client, genesis, blockStore: blocks, stateStore: states },
      stateFromGenesis(genesis),
    );
    const txsOf = (h: bigint) => Array.from({ length: 200 }, (_, i) => enc.encode(`h${h}-k${i}=v${i}`));
    const s3 = await growChain(client, first.state, blocks, states, 3, txsOf);
    assert.equal(Buffer.from(s3.appHash).toString("hex"), "b009000000000000"); // zigzag(600)

    // The app dies while block 4 executes (at its Commit): the block fails, no state comes out,
    // the node halts.
    const halts: { message: string; exitCode: number }[] = [];
    haltOnAbciFailure(client, silent, (h) => halts.push(h));
    const { block, blockId } = buildBlock(s3, { txs: txsOf(4n) });
    blocks.save(block, { blockId, blockSize: 0n, header: block.header, numTxs: 200n });
    const outcome = executeBlock({ consensus: client.consensus }, s3, block, blockId).then(
      () => undefined,
      (e: unknown) => e,
    );
    const failure = await outcome;
    await app.waitFor(/crashing on commit 4/);
    await app.stop();
    assert.ok(failure instanceof AbciError && failure.connection !== undefined, String(failure));
    assert.equal(halts.length, 1);
    assert.equal(halts[0]!.exitCode, 3);
    assert.match(halts[0]!.message, /connection terminated/);
    assert.equal(states.state!.lastBlockHeight, 3n, "no half-applied block");
    await client.close();

    // Restart the app and the node: the handshake brings both to height 4.
    app = await startTestApp([`${address}=ok`], appArgs);
    client = await connectSocketClient(address);
    try {
      const out = await handshake({ client, genesis, blockStore: blocks, stateStore: states }, states.state!);
      assert.equal(out.state.lastBlockHeight, 4n);
      assert.equal(Buffer.from(out.appHash).toString("hex"), "c00c000000000000"); // zigzag(800)
      const q = await client.query.query({ data: enc.encode("h4-k199"), path: "", height: 0n, prove: false });
      assert.equal(Buffer.from(q.value).toString(), "v199");
      assert.equal(q.height, 4n);
    } finally {
      await client.close();
      await app.stop();
    }
  });
});
