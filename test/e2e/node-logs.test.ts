// `rxbft node --trace --log_format json`: every line is v0.34-style JSON (_msg, ts, level, module)
// and each upon-rule of the algorithm that fires is logged at debug level with its paper line.
import assert from "node:assert/strict";
import { after, test } from "node:test";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

test("json logs and --trace's upon-rule lines", { timeout: 60_000 }, async () => {
  const home = await initFastHome({ timeout_commit: "100ms" }, "rxbft-logs-");
  const node = new NodeProcess(home, [
    "--trace",
    "--log_format",
    "json",
    "--log_level",
    "consensus:debug,*:info",
  ]);
  after(() => node.kill("SIGKILL"));
  const ruleLines = () =>
    node.output
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => String(e._msg).startsWith("upon-rule "));
  await node.waitFor(
    () => ruleLines().some((e) => e._msg === "upon-rule L49" && e.height === "3"),
    "L49 at height 3",
  );
  for (const line of node.output.split("\n").filter((l) => l.trim() !== "")) {
    const entry = JSON.parse(line) as Record<string, unknown>;
    assert.equal(typeof entry._msg, "string", line);
    assert.match(String(entry.ts), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, line);
    assert.match(String(entry.level), /^(debug|info|warn|error)$/, line);
    assert.equal(typeof entry.module, "string", line);
  }
  const rules = ruleLines();
  const l49 = rules.find((e) => e._msg === "upon-rule L49")!;
  assert.equal(l49.module, "consensus");
  assert.equal(l49.level, "debug");
  assert.match(String(l49.paper), /^upon ⟨PROPOSAL, h_p, r, v, ∗⟩ and 2f\+1 ⟨PRECOMMIT, h_p, r, id\(v\)⟩/);
  for (const id of ["L11", "L14", "L22", "L36"])
    assert.ok(
      rules.some((e) => e._msg === `upon-rule ${id}`),
      id,
    );
  node.kill("SIGTERM");
  assert.equal((await node.exited).code, 0);
});
