// `rxbft replay --events` re-emits the live node's event stream, byte for byte: a node runs with
// txs (Tx events need the app's DeliverTx answers, which the replay reads from the stores), stops,
// restarts (the restart fold publishes nothing again), stops; the replay of its home must print
// exactly the JSON lines of every event the node published, in both RPC forms.
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, describe, it } from "node:test";
import type { NodeEvent } from "../../streams/node-handle.js";
import { eventJsonLine } from "../../streams/projections/node-events.js";
import { replayHome } from "../../streams/replay-home.js";
import { freshHome, runUntil } from "./streams-node-helpers.js";

const home = freshHome("rxbft-replay-events-");
after(() => rmSync(home, { recursive: true, force: true }));

function run(events: NodeEvent[], untilHeight: bigint, txs: number) {
  return runUntil(home, untilHeight, txs, { onEvent: (e) => events.push(e) });
}

describe("streams: rxbft replay --events", () => {
  it("re-emits the live run's events, the same JSON in the same order, across a restart", async () => {
    const live: NodeEvent[] = [];
    await run(live, 3n, 4);
    const prepared = await run(live, 6n, 3);
    const types = new Set(live.map((e) => e.type));
    for (const t of [
      "NewBlock",
      "NewBlockHeader",
      "Tx",
      "NewRound",
      "NewRoundStep",
      "Vote",
      "CompleteProposal",
    ])
      assert.ok(types.has(t), `the live run published ${t}`);
    for (const form of ["seed", "tendermint"] as const) {
      const replayed: string[] = [];
      await replayHome(
        prepared.paths,
        { ...prepared.config, rpc: { ...prepared.config.rpc, compat: form } },
        () => {},
        {
          printEvent: (line) => replayed.push(line),
        },
      );
      const expected = live.map((e) => eventJsonLine(e, form));
      assert.equal(replayed.length, expected.length, `${form}: as many events`);
      const firstDiff = expected.findIndex((line, i) => replayed[i] !== line);
      assert.equal(
        firstDiff,
        -1,
        `${form}: first differing event #${firstDiff}:\n${expected[firstDiff]}\n${replayed[firstDiff]}`,
      );
    }
  });
});
