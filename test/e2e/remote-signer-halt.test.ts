// A remote signer that goes away mid-height and stays away: the node asks again by v0.34's rule
// (50 attempts, 100 ms apart, each waiting up to 3 s for a signer to dial in), commits nothing
// meanwhile (it never signs by itself: its home holds no key), then halts with exit code 2 and a
// reason naming the signer's address. The halt is transient: started again with its signer, the
// node goes on committing. Slow by design (v0.34's rule takes about 2½ minutes).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { RXBFT_BIN, tempHome } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

const FAST = {
  timeout_commit: "100ms",
  timeout_propose: "1s",
  timeout_prevote: "300ms",
  timeout_precommit: "300ms",
};
const children: ReturnType<typeof spawn>[] = [];
after(() => {
  killAllNodes();
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

function startSigner(home: string, node: string) {
  const child = spawn(process.execPath, [RXBFT_BIN, "signer", "--home", home, "--node", node], {
    stdio: ["ignore", "ignore", "ignore"],
  });
  children.push(child);
  return child;
}

it("a signer gone mid-height: v0.34's retries, then a halt with the reason; a restart resumes", {
  timeout: 300_000,
}, async () => {
  const nodeHome = await initFastHome(FAST, "rxbft-halt-node-");
  const signerHome = tempHome("rxbft-halt-signer-");
  mkdirSync(join(signerHome, "config"), { recursive: true, mode: 0o700 });
  mkdirSync(join(signerHome, "data"), { recursive: true, mode: 0o700 });
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
  const args = ["--priv_validator_laddr", laddr];

  const node = new NodeProcess(nodeHome, args);
  let signer = startSigner(signerHome, laddr);
  await node.waitFor(() => node.height >= 5n, "5 heights", 60_000);
  signer.kill("SIGKILL");
  const atKill = node.height;
  const started = Date.now();
  const exit = await node.exited;
  const waited = (Date.now() - started) / 1000;

  assert.equal(exit.code, 2, "a halt's exit code");
  assert.ok(waited > 140 && waited < 200, `the node gave up after v0.34's retries (${waited.toFixed(0)} s)`);
  assert.ok(node.height <= atKill + 1n, "nothing committed without the signer");
  assert.equal(existsSync(join(nodeHome, "config/priv_validator_key.json")), false);
  assert.match(
    node.output,
    /PRIVVAL_REMOTE_UNAVAILABLE: remote signer at unix:\/\/\S+pv\.sock did not answer the (prevote|precommit|proposal) \d+\/\d+ after 50 attempts/,
  );
  assert.match(node.output, /no remote signer connected: the node cannot sign until one dials in/);

  // Transient: with its signer back, the restarted node is not halted again.
  const again = new NodeProcess(nodeHome, args);
  signer = startSigner(signerHome, laddr);
  await again.waitFor(() => again.height >= atKill + 3n, "heights after the restart", 60_000);
  again.kill("SIGTERM");
  await again.exited;
  signer.kill("SIGTERM");
});
