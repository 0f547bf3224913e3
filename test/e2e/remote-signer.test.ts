// A validator whose key lives in `rxbft signer`, over unix and over tcp (the secret connection):
// it commits 20 heights and more; kill -9 of the signer mid-run and a restart: the node resumes;
// kill -9 of the node and a restart: the signer dials it again. Throughout, the signer's state
// file never goes back, and the node's log holds one block ID per signed height/round/step (no
// double signature). Clear errors: a signer that never dials in (the node says what it waits for
// and where), a signer with a key genesis does not list, a signer for another chain.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readWal } from "../../src/wal/log-reader.js";
import { RXBFT_BIN, runCli, tempHome } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

const FAST = {
  timeout_commit: "100ms",
  timeout_propose: "1s",
  timeout_prevote: "300ms",
  timeout_precommit: "300ms",
};
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();

const signers = new Set<SignerProcess>();
after(() => {
  killAllNodes();
  for (const s of signers) s.kill("SIGKILL");
});

class SignerProcess {
  readonly child: ChildProcess;
  output = "";
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];
  constructor(home: string, node: string, extra: string[] = []) {
    this.child = spawn(process.execPath, [RXBFT_BIN, "signer", "--home", home, "--node", node, ...extra], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    signers.add(this);
    const onData = (chunk: Buffer) => {
      this.output += chunk.toString();
      for (const w of this.waiters.splice(0)) w();
    };
    this.child.stdout!.on("data", onData);
    this.child.stderr!.on("data", onData);
    this.exited = new Promise((resolve) =>
      this.child.on("exit", (code) => {
        signers.delete(this);
        resolve(code);
      }),
    );
  }
  waitFor(text: string, timeoutMs = 20_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`signer: timed out waiting for "${text}"; output:\n${this.output.slice(-2000)}`)),
        timeoutMs,
      );
      const test = () => {
        if (this.output.includes(text)) {
          clearTimeout(timer);
          resolve();
        } else this.waiters.push(test);
      };
      test();
    });
  }
  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }
}

/** A node home without its key, and a signer home holding the key, its state and genesis. */
async function splitHomes(prefix: string): Promise<{ nodeHome: string; signerHome: string }> {
  const nodeHome = await initFastHome(FAST, `rxbft-${prefix}-node-`);
  const signerHome = tempHome(`rxbft-${prefix}-signer-`);
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
  return { nodeHome, signerHome };
}

async function freeTcpAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return `tcp://127.0.0.1:${port}`;
}

/** Samples the signer's state file and records any step back in (height, round, step). */
function watchStateFile(path: string): { stop(): string[] } {
  const regressions: string[] = [];
  let last: [bigint, number, number] = [0n, 0, 0];
  const timer = setInterval(() => {
    let s: { height: string; round: number; step: number };
    try {
      s = JSON.parse(readFileSync(path, "utf8"));
    } catch {
      return; // never a torn file (atomic rename), but a read may race a first creation
    }
    const now: [bigint, number, number] = [BigInt(s.height), s.round, s.step];
    const back =
      now[0] < last[0] ||
      (now[0] === last[0] && (now[1] < last[1] || (now[1] === last[1] && now[2] < last[2])));
    if (back) regressions.push(`${last.join("/")} -> ${now.join("/")}`);
    last = now;
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return regressions;
    },
  };
}

/** Every signed vote and proposal in the node's log: one block ID per height/round/type. */
async function conflictingSignatures(nodeHome: string): Promise<{ signed: number; conflicts: string[] }> {
  const seen = new Map<string, string>();
  const conflicts: string[] = [];
  let signed = 0;
  for await (const entry of readWal(join(nodeHome, "data/cs.wal"))) {
    if (entry.kind !== "input") continue;
    const input = entry.input as {
      type: string;
      vote?: { height: bigint; round: number; type: number; blockId: { hash: Uint8Array } };
      proposal?: { height: bigint; round: number; blockId: { hash: Uint8Array } };
    };
    const m =
      input.type === "VoteSigned" ? input.vote : input.type === "ProposalSigned" ? input.proposal : undefined;
    if (!m) continue;
    signed++;
    const key = `${m.height}/${m.round}/${input.vote?.type ?? "proposal"}`;
    const block = hex(m.blockId.hash);
    const before = seen.get(key);
    if (before !== undefined && before !== block) conflicts.push(`${key}: ${before} and ${block}`);
    seen.set(key, block);
  }
  return { signed, conflicts };
}

function runScenario(transport: "unix" | "tcp") {
  it(`over ${transport}: 20+ heights, kill -9 of the signer and of the node, no double signature`, {
    timeout: 180_000,
  }, async () => {
    const { nodeHome, signerHome } = await splitHomes(transport);
    const laddr = transport === "unix" ? `unix://${join(nodeHome, "pv.sock")}` : await freeTcpAddress();
    const watch = watchStateFile(join(signerHome, "data/priv_validator_state.json"));
    const nodeArgs = ["--priv_validator_laddr", laddr];

    let node = new NodeProcess(nodeHome, nodeArgs);
    await node.waitFor(
      () => node.output.includes("waiting for the remote signer to dial in"),
      "the node to listen",
    );
    let signer = new SignerProcess(signerHome, laddr);
    await node.waitFor(() => node.height >= 20n, "20 heights through the remote signer", 60_000);

    // kill -9 of the signer mid-run: the node waits (v0.34's retries), a restarted signer answers.
    signer.kill("SIGKILL");
    await signer.exited;
    const atKill = node.height;
    await new Promise((r) => setTimeout(r, 700));
    signer = new SignerProcess(signerHome, laddr);
    await node.waitFor(() => node.height >= atKill + 5n, "heights after the signer restarted", 60_000);
    assert.equal(node.child.exitCode, null, "the node kept running while its signer was away");

    // kill -9 of the node: the signer dials again; the restarted node goes on signing through it.
    node.kill("SIGKILL");
    await node.exited;
    const before = node.height;
    node = new NodeProcess(nodeHome, nodeArgs);
    await signer.waitFor("reconnected to the node");
    await node.waitFor(() => node.height >= before + 5n, "heights after the node restarted", 60_000);

    node.kill("SIGTERM");
    await node.exited;
    signer.kill("SIGTERM");
    assert.equal(await signer.exited, 0);
    assert.deepEqual(watch.stop(), [], "the signer's state file never went back");
    const { signed, conflicts } = await conflictingSignatures(nodeHome);
    assert.ok(signed > 60, `the log holds the node's signatures (${signed})`);
    assert.deepEqual(conflicts, []);
  });
}

describe("remote signer (rxbft signer) end to end", () => {
  runScenario("unix");
  runScenario("tcp");

  it("a signer that never dials in: the node says what it waits for and where, and stops cleanly", {
    timeout: 30_000,
  }, async () => {
    const { nodeHome } = await splitHomes("absent");
    const laddr = `unix://${join(nodeHome, "pv.sock")}`;
    const node = new NodeProcess(nodeHome, ["--priv_validator_laddr", laddr]);
    await node.waitFor(
      () =>
        /waiting for a remote signer to dial in \(priv_validator_laddr\).*address=unix:\/\/.*pv\.sock.*waited=3s/.test(
          node.output,
        ),
      "the waiting message",
      15_000,
    );
    node.kill("SIGTERM");
    assert.equal((await node.exited).code, 0);
  });

  it("a signer holding a key genesis does not list: the node refuses to start, naming both", {
    timeout: 30_000,
  }, async () => {
    const { nodeHome } = await splitHomes("wrongkey");
    const other = tempHome("rxbft-other-key-");
    assert.equal((await runCli(["init", "--home", other, "--chain-id", "node-e2e"])).code, 0);
    const laddr = `unix://${join(nodeHome, "pv.sock")}`;
    const node = new NodeProcess(nodeHome, ["--priv_validator_laddr", laddr]);
    await node.waitFor(() => node.output.includes("waiting for the remote signer"), "the node to listen");
    new SignerProcess(other, laddr);
    const exit = await node.exited;
    assert.notEqual(exit.code, 0);
    assert.match(
      node.output,
      /answers with public key [0-9A-F]{64} \(address [0-9A-F]{40}\), which is not a validator of chain node-e2e/,
    );
  });

  it("a signer for another chain: the node refuses to start with the signer's reason", {
    timeout: 30_000,
  }, async () => {
    const { nodeHome, signerHome } = await splitHomes("wrongchain");
    const laddr = `unix://${join(nodeHome, "pv.sock")}`;
    const node = new NodeProcess(nodeHome, ["--priv_validator_laddr", laddr]);
    await node.waitFor(() => node.output.includes("waiting for the remote signer"), "the node to listen");
    const signer = new SignerProcess(signerHome, laddr, ["--chain-id", "another-chain"]);
    const exit = await node.exited;
    assert.notEqual(exit.code, 0);
    assert.match(
      node.output,
      /this signer signs for chain "another-chain", the request is for chain "node-e2e"/,
    );
    signer.kill("SIGTERM");
  });
});

describe("rxbft signer: its own errors", () => {
  it("names what is missing or wrong, on one line", { timeout: 30_000 }, async () => {
    const empty = tempHome("rxbft-signer-empty-");
    const missing = await runCli(["signer", "--home", empty, "--node", "unix:///tmp/x.sock"]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /priv_validator_key\.json: no validator key here/);
    const bad = await runCli(["signer", "--home", empty, "--node", "http://127.0.0.1:1"]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--node: "http:\/\/127.0.0.1:1" is not a signer address \(unknown protocol\)/);
    const { signerHome } = await splitHomes("nostate");
    rmSync(join(signerHome, "data/priv_validator_state.json"));
    const noState = await runCli(["signer", "--home", signerHome, "--node", "unix:///tmp/x.sock"]);
    assert.equal(noState.code, 1);
    assert.match(noState.stderr, /the validator's signing state is missing/);
  });
});
