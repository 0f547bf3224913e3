// The assembled node in-process: a single validator with the in-process kvstore commits heights,
// stops cleanly, and a second start continues the same chain from the stores and the log.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, describe, it } from "node:test";
import { firstValueFrom } from "rxjs";
import { filter } from "rxjs/operators";
import { startNode } from "../../streams/node.js";
import { freshHome, prepare } from "./streams-node-helpers.js";

const home = freshHome();
after(() => rmSync(home, { recursive: true, force: true }));

async function runUntil(height: bigint) {
  const prepared = prepare(home);
  try {
    const node = await startNode(prepared, { verifyWorkers: 0, rpc: false });
    const reached = await firstValueFrom(node.consensusState$.pipe(filter((s) => s.height > height)));
    const exit = await node.stop();
    return { node, reached, exit };
  } finally {
    prepared.lock.release();
  }
}

describe("streams: the node", () => {
  it("commits heights, stops cleanly and continues after a restart", async () => {
    const first = await runUntil(3n);
    assert.equal(first.exit.exitCode, 0);
    const h1 = first.node.stores.blockStore.height();
    assert.ok(h1 >= 3n, `height ${h1}`);
    const second = await runUntil(h1 + 2n);
    assert.equal(second.exit.exitCode, 0);
    assert.ok(second.node.chainState().lastBlockHeight >= h1 + 2n);
  });
});

describe("streams: create_empty_blocks = false", () => {
  it("waits for txs after the first blocks, and proposes once the mempool reports some", async () => {
    const quietHome = freshHome("rxbft-no-empty-");
    const prepared = prepare(quietHome, { "consensus.create_empty_blocks": false });
    try {
      const node = await startNode(prepared, { verifyWorkers: 0, rpc: false });
      try {
        // Height 1 (the initial height) is proposed at once; later heights wait for txs, except
        // the one after a block that changed the app hash.
        await firstValueFrom(node.consensusState$.pipe(filter((s) => s.height >= 2n)));
        await new Promise((r) => setTimeout(r, 600));
        const idle = node.chainState().lastBlockHeight;
        await new Promise((r) => setTimeout(r, 600));
        assert.equal(node.chainState().lastBlockHeight, idle, "no empty blocks while the pool is empty");
        const admitted = await node.mempool.submit(new TextEncoder().encode("wake=up"));
        assert.equal(admitted.outcome.kind, "added");
        const txEvent = firstValueFrom(node.events$.pipe(filter((e) => e.type === "Tx")));
        const event = await txEvent;
        assert.equal(event.events["tx.height"]?.[0], String(idle + 1n));
        assert.equal(node.mempool.state().txs.size, 0);
      } finally {
        await node.stop();
      }
    } finally {
      prepared.lock.release();
      rmSync(quietHome, { recursive: true, force: true });
    }
  });
});
