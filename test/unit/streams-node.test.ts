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
