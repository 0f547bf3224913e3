// Many handshakes at once on one process: honest pairs all connect and talk, while stalled and
// garbage-sending sockets among them are cut with their own codes and affect nobody else.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { P2pError } from "../../src/p2p/errors.js";
import { upgradeConnection } from "../../src/p2p/upgrade.js";
import { eventually, socketPair, testNode, upgradeOptions } from "./p2p-test-peers.js";

test("many connections: 30 honest pairs, 10 stalled and 10 garbage sockets at the same time", async () => {
  const honest = Array.from({ length: 30 }, async () => {
    const pair = await socketPair();
    const na = testNode();
    const nb = testNode();
    const [a, b] = await Promise.all([
      upgradeConnection(pair.a, upgradeOptions(na, true, { dialledId: nb.id })),
      upgradeConnection(pair.b, upgradeOptions(nb, false)),
    ]);
    const got: Uint8Array[] = [];
    b.onMessage((_, m) => got.push(m));
    a.send(0x20, Uint8Array.from(Buffer.from("0a0a08011001180120012801", "hex")));
    await eventually(() => got.length === 1, 5000);
    a.close("done");
    b.close("done");
    return "ok";
  });
  const stalled = Array.from({ length: 10 }, async () => {
    const pair = await socketPair();
    try {
      await upgradeConnection(pair.b, upgradeOptions(testNode(), false, { handshakeTimeoutMs: 500 }));
      return "unexpected success";
    } catch (error) {
      return (error as P2pError).code;
    } finally {
      pair.close();
    }
  });
  const garbage = Array.from({ length: 10 }, async (_, i) => {
    const pair = await socketPair();
    pair.a.on("data", () => {});
    pair.a.on("error", () => {});
    pair.a.write(Buffer.alloc(100 + i, 0xab));
    try {
      await upgradeConnection(pair.b, upgradeOptions(testNode(), false, { handshakeTimeoutMs: 2000 }));
      return "unexpected success";
    } catch (error) {
      return (error as P2pError).code;
    } finally {
      pair.close();
    }
  });
  const results = await Promise.all([...honest, ...stalled, ...garbage]);
  assert.deepEqual(results.slice(0, 30), Array(30).fill("ok"));
  assert.deepEqual(results.slice(30, 40), Array(10).fill("P2P_HANDSHAKE_TIMEOUT"));
  for (const code of results.slice(40)) assert.match(code, /^P2P_(BAD_EPHEMERAL_KEY|BAD_FRAME)$/);
});
