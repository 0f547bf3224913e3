// What four validators tolerate (f = 1 of 3f+1), with real processes killed by PID:
// kill -9 one validator: the three others keep committing; kill -9 a second: nobody commits and
// nobody forks (two of four is no +2/3); restart one: commits resume and the restarted node
// catches up; restart the last: it catches up too, and every node holds the same hashes.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { highest, Network } from "./network-harness.js";
import { killAllNodes } from "./node-harness.js";

after(killAllNodes);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("kill one: three go on; kill two: halt without a fork; restart: resume and catch up", {
  timeout: 420_000,
}, async () => {
  const net = await Network.create({ validators: 4, prefix: "rxbft-net-faults-" });
  net.startAll();
  try {
    await net.waitForHeight([0, 1, 2, 3], 4n, 120_000);

    await net.kill9(3);
    const afterOne = net.commonHeight([0, 1, 2]);
    await net.waitForHeight([0, 1, 2], afterOne + 4n, 90_000);

    await net.kill9(2);
    // let a height in flight finish, then watch: nothing may be committed for a while
    await sleep(3000);
    const stalled = [0, 1].map((i) => net.node(i).height);
    await sleep(10_000);
    assert.deepEqual(
      [0, 1].map((i) => net.node(i).height),
      stalled,
      "two validators of four (half the power) commit nothing",
    );
    const statusHeights = await Promise.all([0, 1].map((i) => net.statusHeight(i)));
    assert.deepEqual(statusHeights, stalled, "/status agrees with the log: no new block");

    // restart one: three of four again → commits resume, the restarted node catches up
    net.start(2);
    const resumeFrom = highest(stalled);
    await net.waitForHeight([0, 1, 2], resumeFrom + 3n, 120_000);

    // restart the other: it catches up from further behind
    net.start(3);
    const target = net.commonHeight([0, 1, 2]) + 2n;
    await net.waitForHeight([0, 1, 2, 3], target, 120_000);

    assert.deepEqual(net.forks(), [], "no height was ever committed with two hashes");
    assert.deepEqual(await net.compareHashes([0, 1, 2, 3], 1n, target), []);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${[0, 1, 2, 3].map((i) => net.tail(i)).join("\n")}`);
  } finally {
    await net.stopAll();
  }
});
