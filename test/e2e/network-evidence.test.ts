// A Byzantine validator that double-signs (test/fixtures/byzantine-validator.ts: node3's key
// and address, two prevotes for one height and round) against three honest validators, each
// with its kvstore app in a separate process (test/fixtures/abci-test-app over a unix socket):
// DuplicateVoteEvidence naming it is committed in a block every node holds, and each node's app
// is told of it in BeginBlock (the app prints the misbehaviour it receives).
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { startTestApp, type TestAppProcess } from "../fixtures/abci-test-app/process.js";
import { tempHome } from "./cli-harness.js";
import { Network } from "./network-harness.js";
import { killAllNodes } from "./node-harness.js";

const BYZANTINE = fileURLToPath(new URL("../fixtures/byzantine-validator.ts", import.meta.url));
let byzantine: ChildProcess | undefined;
const apps: TestAppProcess[] = [];
after(() => {
  killAllNodes();
  byzantine?.kill("SIGKILL");
  for (const app of apps) app.child.kill("SIGKILL");
});

const HONEST = [0, 1, 2];

interface EvidenceJson {
  type: string;
  value: { vote_a: { validator_address: string; height: string }; vote_b: { validator_address: string } };
}

test("a double-signing validator: DuplicateVoteEvidence committed on every node and passed to the app", {
  timeout: 300_000,
}, async () => {
  const net = await Network.create({ validators: 4, prefix: "rxbft-net-evidence-" });
  const offender = (
    JSON.parse(readFileSync(join(net.homes[3]!, "config/priv_validator_key.json"), "utf8")) as {
      address: string;
    }
  ).address;
  // the apps first (each node waits for its app), then the nodes together
  const sockets = HONEST.map((i) => `unix://${join(net.homes[i]!, "app.sock")}`);
  for (const socket of sockets)
    apps.push(
      await startTestApp([socket], ["--app", "kvstore", "--kvstore-dir", tempHome("rxbft-net-app-")]),
    );
  await Promise.all(apps.map((app) => app.waitFor(/^listening /)));
  for (const i of HONEST) net.start(i, ["--proxy_app", sockets[i]!]);
  let output = "";
  byzantine = spawn(process.execPath, ["--import", "tsx", BYZANTINE, net.homes[3]!, "--heights", "3"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  byzantine.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  byzantine.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  try {
    await net.waitForHeight(HONEST, 2n, 120_000);
    let found: { height: bigint; evidence: EvidenceJson } | undefined;
    const deadline = Date.now() + 150_000;
    let checked = 0n;
    while (found === undefined && Date.now() < deadline) {
      const top = net.commonHeight(HONEST);
      for (let h = checked + 1n; h <= top && found === undefined; h++) {
        const found0: { block: { evidence: { evidence: EvidenceJson[] | null } } } = await net.rpc(
          0,
          `/block?height=${h}`,
        );
        const ev = found0.block.evidence.evidence?.[0];
        if (ev) found = { height: h, evidence: ev };
        checked = h;
      }
      if (found === undefined) await new Promise((r) => setTimeout(r, 500));
    }
    assert.ok(found, `evidence committed within the time; byzantine output:\n${output}`);
    assert.match(output, /equivocated height=\d+/);
    assert.equal(found.evidence.type, "tendermint/DuplicateVoteEvidence");
    assert.equal(found.evidence.value.vote_a.validator_address, offender);
    assert.equal(found.evidence.value.vote_b.validator_address, offender);

    // every honest node holds that block with that evidence
    await net.waitForHeight(HONEST, found.height + 2n, 60_000);
    for (const i of HONEST) {
      const held: { block: { evidence: { evidence: EvidenceJson[] | null } } } = await net.rpc(
        i,
        `/block?height=${found.height}`,
      );
      assert.deepEqual(held.block.evidence.evidence?.[0], found.evidence, `node${i}`);
    }
    assert.deepEqual(await net.compareHashes(HONEST, 1n, found.height + 2n), []);

    // every node's app was told in BeginBlock of the block carrying the evidence
    for (const [k, app] of apps.entries()) {
      const line = await app.waitFor(
        new RegExp(`^byzantine height=${found.height} type=1 validator=${offender}$`),
        30_000,
      );
      assert.ok(line, `node${HONEST[k]}'s app got the misbehaviour`);
    }
  } catch (error) {
    throw new Error(
      `${(error as Error).message}\n${HONEST.map((i) => net.tail(i)).join("\n")}\n--- byzantine ---\n${output.slice(-2000)}`,
    );
  } finally {
    byzantine.kill("SIGTERM");
    await net.stopAll();
    await Promise.all(apps.map((a) => a.stop()));
  }
});
