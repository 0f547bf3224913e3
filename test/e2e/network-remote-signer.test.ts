// Issue 17 on a network: four validators from `rxbft testnet --v 4`, node3's key moved out of its
// home into an `rxbft signer` that dials node3's priv_validator_laddr (unix socket). The network
// stays live, and node3's signatures (through the signer) are in the commits of ≥ 10 heights
// that every node holds.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { RXBFT_BIN, tempHome } from "./cli-harness.js";
import { Network } from "./network-harness.js";
import { killAllNodes } from "./node-harness.js";

let signer: ChildProcess | undefined;
after(() => {
  killAllNodes();
  signer?.kill("SIGKILL");
});

const ALL = [0, 1, 2, 3];
const BLOCK_ID_FLAG_COMMIT = 2;

test("four validators, one signing through rxbft signer: live, its signatures in ≥ 10 commits", {
  timeout: 300_000,
}, async () => {
  const net = await Network.create({ validators: 4, prefix: "rxbft-net-signer-" });
  const nodeHome = net.homes[3]!;
  const signerHome = tempHome("rxbft-net-signer-key-");
  for (const d of ["config", "data"]) mkdirSync(join(signerHome, d), { recursive: true, mode: 0o700 });
  const address = (
    JSON.parse(readFileSync(join(nodeHome, "config/priv_validator_key.json"), "utf8")) as { address: string }
  ).address;
  renameSync(
    join(nodeHome, "config/priv_validator_key.json"),
    join(signerHome, "config/priv_validator_key.json"),
  );
  renameSync(
    join(nodeHome, "data/priv_validator_state.json"),
    join(signerHome, "data/priv_validator_state.json"),
  );
  copyFileSync(join(nodeHome, "config/genesis.json"), join(signerHome, "config/genesis.json"));
  const laddr = `unix://${join(nodeHome, "pv.sock")}`;

  net.startAll((i) => (i === 3 ? ["--priv_validator_laddr", laddr] : []));
  const node3 = net.node(3);
  let signerOutput = "";
  try {
    await node3.waitFor(
      () => node3.output.includes("waiting for the remote signer"),
      "node3 to listen",
      60_000,
    );
    signer = spawn(process.execPath, [RXBFT_BIN, "signer", "--home", signerHome, "--node", laddr], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    signer.stdout!.on("data", (c: Buffer) => (signerOutput += c.toString()));
    signer.stderr!.on("data", (c: Buffer) => (signerOutput += c.toString()));

    // ≥ 10 commits carrying node3's signature, read from node0 (commit of h is in block h+1)
    const signedHeights: bigint[] = [];
    let h = 1n;
    const deadline = Date.now() + 180_000;
    while (signedHeights.length < 10 && Date.now() < deadline) {
      await net.waitForHeight([0], h + 1n, Math.max(1000, deadline - Date.now()));
      const c = await net.rpc<{
        signed_header: { commit: { signatures: { validator_address: string; block_id_flag: number }[] } };
      }>(0, `/commit?height=${h}`);
      const sig = c.signed_header.commit.signatures.find((s) => s.validator_address === address);
      if (sig?.block_id_flag === BLOCK_ID_FLAG_COMMIT) signedHeights.push(h);
      h++;
    }
    assert.ok(
      signedHeights.length >= 10,
      `node3's signature in ≥ 10 commits (got ${signedHeights.length} by height ${h}); signer:\n${signerOutput.slice(-2000)}`,
    );
    const top = signedHeights.at(-1)!;
    await net.waitForHeight(ALL, top, 90_000);
    assert.deepEqual(await net.compareHashes(ALL, 1n, top), []);
    assert.match(node3.output, /remote signer/);
    assert.deepEqual(net.forks(), []);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n${ALL.map((i) => net.tail(i)).join("\n")}\n--- signer ---\n${signerOutput.slice(-2000)}`,
    );
  } finally {
    await net.stopAll();
    signer?.kill("SIGTERM");
  }
});
