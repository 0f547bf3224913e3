// A validator of four stopped for 200 heights comes back through block sync (issue 14's
// acceptance): the three others commit 200 heights without it, it restarts in its home, logs the
// start of block sync with /status catching_up true meanwhile, applies the missed heights from its
// peers, switches to consensus, signs again (its signature is in a later commit), and every node
// holds the same block hash and app hash at every height.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { firstSignedHeight } from "./commit-signers.js";
import { weakenValidator } from "./genesis-power.js";
import { FAST_CONSENSUS, Network } from "./network-harness.js";
import { killAllNodes } from "./node-harness.js";

after(killAllNodes);

const MISSED = 200n;
const SWITCHED = /caught up: switching to consensus\s.*height=(\d+) maxPeerHeight=(\d+) blocksSynced=(\d+)/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("a validator stopped for 200 heights of a 4-validator net returns through block sync and signs again", {
  timeout: 480_000,
}, async () => {
  const net = await Network.create({
    validators: 4,
    prefix: "rxbft-bs-return-",
    consensus: { ...FAST_CONSENSUS, timeout_commit: "100ms" },
  });
  weakenValidator(net.homes, "node3");
  net.startAll();
  try {
    await net.waitForHeight([0, 1, 2, 3], 3n, 120_000);
    const status = await net.rpc<{ validator_info: { address: string } }>(3, "/status");
    const address = status.validator_info.address;

    assert.equal(await net.stop(3), 0, "a clean stop");
    const stoppedAt = net.node(3).height;
    await net.waitForHeight([0, 1, 2], stoppedAt + MISSED, 300_000);

    const back = net.start(3);
    await back.waitFor(() => back.output.includes("block sync started"), "block sync to start", 60_000);
    // catching_up stays true from the start of block sync until the switch.
    let sawCatchingUp = false;
    while (!SWITCHED.test(back.output)) {
      if (!net.isRunning(3)) assert.fail(`node3 exited while syncing\n${net.tail(3)}`);
      if (back.rpcUrl !== undefined) {
        const s = await net.rpc<{ sync_info: { catching_up: boolean } }>(3, "/status");
        if (s.sync_info.catching_up) sawCatchingUp = true;
      }
      await sleep(50);
    }
    assert.ok(sawCatchingUp, "/status said catching_up while node3 synced");
    const [, switchedAt, , synced] = SWITCHED.exec(back.output)!;
    const switchHeight = BigInt(switchedAt!);
    assert.ok(
      BigInt(synced!) >= MISSED - 10n,
      `node3 synced ${synced} blocks (it missed at least ${MISSED})`,
    );
    assert.ok(switchHeight >= stoppedAt + MISSED - 1n, `switched at ${switchHeight}`);

    // Back in consensus: its precommit is in a commit made after the switch.
    await firstSignedHeight(net, { reader: 0, signer: 3, address, after: switchHeight + 1n, within: 30n });

    const upTo = net.commonHeight([0, 1, 2, 3]);
    assert.deepEqual(net.forks(), [], "no height was ever committed with two hashes");
    assert.deepEqual(await net.compareHashes([0, 1, 2, 3], 1n, upTo), []);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${[0, 1, 2, 3].map((i) => net.tail(i)).join("\n")}`);
  } finally {
    await net.stopAll();
  }
});
