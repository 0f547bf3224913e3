// `rxbft node` asked to stop (SIGTERM/SIGINT) while it is still starting: the start unwinds at
// its next stage and the node exits 0, whatever stage the signal lands in. Before, only the wait
// for a socket app heeded it: a signal after the app's handshake was logged and then ignored, and
// the node went on to run.
import assert from "node:assert/strict";
import { test } from "node:test";
import { prepareNode } from "../../streams/boot/prepare-home.js";
import { runNode } from "../../streams/run-node.js";
import { FAST_TIMEOUTS, freshHome } from "./streams-node-helpers.js";

for (const stage of [
  "completed ABCI handshake",
  "P2P listening",
  "consensus started",
  "RPC server listening",
]) {
  test(`a SIGTERM right after "${stage}" stops the starting node with exit code 0`, async () => {
    const lines: string[] = [];
    const prepared = prepareNode({
      home: freshHome(),
      overrides: {
        proxy_app: "kvstore",
        log_level: "info",
        "p2p.laddr": "tcp://127.0.0.1:0",
        "rpc.laddr": "tcp://127.0.0.1:0",
        ...FAST_TIMEOUTS,
      },
      logDestination: {
        write: (line: string) => {
          lines.push(line);
          // The signal arrives while the start is inside this stage's log call: synchronously,
          // as a signal handler would run between two of the start's turns.
          if (line.includes(stage)) process.emit("SIGTERM", "SIGTERM");
        },
      },
    });
    try {
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        runNode(prepared, { verifyWorkers: 0 }),
        new Promise<"still running">((resolve) => {
          timer = setTimeout(() => resolve("still running"), 20_000);
        }),
      ]);
      clearTimeout(timer);
      assert.equal(outcome, 0, `the node stopped; its log:\n${lines.join("")}`);
      assert.ok(
        lines.some((l) => l.includes("captured signal, stopping")),
        "the signal was seen during the start",
      );
      assert.ok(
        lines.some((l) => l.includes("stopped while starting")),
        `the start was unwound, not run to the end; its log:\n${lines.join("")}`,
      );
    } finally {
      prepared.lock.release();
    }
  });
}
