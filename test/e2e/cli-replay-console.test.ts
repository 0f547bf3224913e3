// `rxbft replay --console` driven through stdin, as a person would type: on a recorded simulation
// run (a height of two rounds, stepped forward and back) and on the log of a real node's home.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { RXBFT_BIN } from "./cli-harness.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

const RUN = fileURLToPath(new URL("../fixtures/replay/two-rounds/", import.meta.url));

function consoleSession(
  args: string[],
  commands: string[],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RXBFT_BIN, "replay", "--console", ...args], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
    child.stdin.end(`${commands.join("\n")}\n`);
  });
}

/** The output of each command, split at the prompts. */
const answers = (out: string) => out.split("replay> ").slice(1);

test("a two-round height of a recorded simulation, stepped through and back", {
  timeout: 60_000,
}, async () => {
  const { code, out, err } = await consoleSession(
    ["--sim", RUN, "--validator", "0"],
    ["nh 4", "nr", "n", "b", "b", "n", "timeline", "find type=VoteReceived round=1 validator=2", "quit"],
  );
  assert.equal(code, 0, err);
  assert.match(out, /^replaying .*two-rounds\/v0 \(validator 0 of 4\): 53 inputs/);
  const a = answers(out);
  assert.match(a[0]!, /height 4 round 0 NewHeight[\s\S]*height: 3 → 4/);
  assert.match(a[1]!, /height 4 round 1 Propose[\s\S]*L65: OnTimeoutPrecommit[\s\S]*L11: StartRound/);
  assert.match(a[1]!, /round: 0 → 1/);
  assert.match(a[2]!, /position 45\/53: height 4 round 1/);
  assert.equal(a[3], a[1], "one step back shows the step into round 1 again");
  assert.match(a[4]!, /position 43\/53: height 4 round 0 PrecommitWait[\s\S]*L47: upon 2f\+1 ⟨PRECOMMIT/);
  assert.equal(a[5], a[1], "and forward again the same step, exactly");
  assert.match(a[6]!, /^height 4:\n(.*\n)*.*r1 Commit\s+VoteReceived precommit h4 r1/);
  assert.match(a[7]!, /VoteReceived (prevote|precommit) h4 r1 by #2/);
  assert.equal(a[8], "", "quit prints nothing");
});

test("the log of a real node's home", { timeout: 90_000 }, async () => {
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-console-");
  const node = new NodeProcess(home);
  await node.waitFor(() => node.height >= 3n, "height 3");
  node.kill("SIGTERM");
  assert.equal((await node.exited).code, 0);
  const { code, out, err } = await consoleSession(
    ["--home", home],
    ["nh 2", "find effect=CommitBlock", "b 3", "state", "bogus", "q"],
  );
  assert.equal(code, 0, err);
  const a = answers(out);
  assert.match(a[0]!, /height 2 round 0/);
  assert.match(a[1]!, /CommitBlock h2 r0 block [0-9A-F]{12} txs 0/);
  assert.match(a[1]!, /L49: upon ⟨PROPOSAL, h_p, r, v, ∗⟩ and 2f\+1 ⟨PRECOMMIT/);
  assert.match(a[3]!, /height: 2\n\s+round: 0/);
  assert.match(a[4]!, /error: unknown command "bogus"/);
});
