// Our own exception inside consensus halts the node safely, never a crash mid-height or a hang
// (DESIGN §9): the built node runs with consensus rules whose proposer selection breaks an
// invariant (throws) at the start of height 4. The process exits with code 2 and a message that
// names the input the reducer was folding; nothing is signed after it; the home lock is released.
// The log is intact: the real `rxbft node` (with the real rules) restarts from that home and
// commits past the height where the fault happened.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, test } from "node:test";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { readWal } from "../../src/wal/log-reader.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const module = (path: string) => JSON.stringify(pathToFileURL(join(dist, path)).href);

/** Runs the built node (dist/) like `rxbft node`, with rules that throw from the `throwAt`-th height's set on. */
function runWithBrokenRules(home: string, throwAt: number): Promise<{ code: number | null; output: string }> {
  const script = join(dirname(home), "run-broken.mjs");
  writeFileSync(
    script,
    `import { prepareNode } from ${module("streams/boot/prepare-home.js")};
import { runNode } from ${module("streams/run-node.js")};
import { createDefaultConsensusRules } from ${module("src/consensus/default-rules.js")};
const rules = createDefaultConsensusRules();
// Counted by height, not by call: each height's set is an object of its own, and a height's
// proposer is asked more than once (the hashing-ahead handler, which leaves a throw to the
// reducer, then the reducer at the round's start).
const seen = new WeakSet();
let heights = 0;
const broken = {
  incrementProposerPriority: (set, times) => rules.incrementProposerPriority(set, times),
  proposer: (set, round) => rules.proposer(set, round),
  proposerOf(set) {
    if (!seen.has(set)) {
      seen.add(set);
      heights++;
    }
    if (heights >= ${throwAt}) throw new Error("test-injected broken invariant in proposer selection");
    return rules.proposerOf(set);
  },
};
const prepared = prepareNode({ home: ${JSON.stringify(home)}, overrides: { proxy_app: "kvstore", "rpc.laddr": "tcp://127.0.0.1:0" } });
let code = 1;
try {
  code = await runNode(prepared, { consensusRules: broken });
} finally {
  prepared.lock.release();
}
process.exit(code);
`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`no halt within 60 s (a hang):\n${output}`));
    }, 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

test("a reducer exception halts with exit code 2 and names the input; the log restarts cleanly", async () => {
  const home = await initFastHome({ timeout_commit: "50ms" }, "rxbft-fault-");
  const { code, output } = await runWithBrokenRules(home, 4);
  assert.equal(code, 2, output.slice(-3000));
  assert.match(
    output,
    /node halted\s.*reason="?consensus halted on an internal error: the reducer threw on input #\d+ \(\w+ at height \d+[^)]*\): test-injected broken invariant in proposer selection/,
  );
  assert.doesNotMatch(output, /uncaught|Unhandled|\n\s+at /, "no stack trace, no crash");
  const committed = [...output.matchAll(/committed block\s.*height=(\d+)/g)].map((m) => Number(m[1]));
  assert.deepEqual(committed, [1, 2, 3], "three heights before the fault, none after");

  // The log ends with the faulty input; no signature follows it.
  const inputs: ConsensusInput[] = [];
  for await (const entry of readWal(join(home, "data", "cs.wal")))
    if (entry.kind === "input") inputs.push(entry.input as ConsensusInput);
  const lastSigned = inputs.findLastIndex((i) => i.type === "VoteSigned" || i.type === "ProposalSigned");
  const lastExecuted = inputs.findLastIndex((i) => i.type === "BlockExecuted");
  assert.ok(lastSigned < lastExecuted, "nothing signed after the block before the fault");

  // The real binary, with the real rules, carries on from the same home.
  const node = new NodeProcess(home);
  await node.waitFor(() => node.committed.some((c) => c.height >= 5n), "height 5", 60_000);
  node.kill("SIGTERM");
  const exit = await node.exited;
  assert.equal(exit.code, 0, node.output.slice(-2000));
});
