// A halt is safe and says why: a signer whose state is ahead of the chain (a restored home, a
// second process) refuses to sign; consensus halts, nothing is signed, the process exits 2 with
// the reason, releases the lock, and the log holds no signed vote. A restart halts again.
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import type { ConsensusInput } from "../../src/consensus/input.js";
import { readWal } from "../../src/wal/log-reader.js";
import { initFastHome, killAllNodes, NodeProcess } from "./node-harness.js";

after(killAllNodes);

test("a signer refusal halts consensus with exit code 2 and the reason", async () => {
  const home = await initFastHome({ timeout_commit: "50ms" }, "rxbft-halt-");
  const stateFile = join(home, "data", "priv_validator_state.json");
  const state = JSON.parse(readFileSync(stateFile, "utf8"));
  writeFileSync(stateFile, JSON.stringify({ ...state, height: "1000", round: 0, step: 3 }));

  const node = new NodeProcess(home);
  const exit = await Promise.race([
    node.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no halt:\n${node.output}`)), 60_000),
    ),
  ]);
  assert.equal(exit.code, 2, node.output.slice(-3000));
  assert.match(node.output, /signing failed; consensus halts\s.*module=privval/);
  assert.match(
    node.output,
    /node halted\s.*reason="?signing our (proposal|prevote) for height 1 round 0 failed: .*regression/,
  );
  assert.equal(node.committed.length, 0);
  assert.equal(existsSync(join(home, "data", "rxbft.lock")), false, "lock released");
  for await (const entry of readWal(join(home, "data", "cs.wal"))) {
    if (entry.kind !== "input") continue;
    const type = (entry.input as ConsensusInput).type;
    assert.ok(type !== "VoteSigned" && type !== "ProposalSigned", `the log holds a ${type}`);
  }

  // A refusal is re-applied at the next start (restart-fold.ts): the node halts again, and the
  // signer is asked nothing (no second "signing failed" line).
  const again = new NodeProcess(home);
  const second = await Promise.race([
    again.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no halt at the restart:\n${again.output}`)), 60_000),
    ),
  ]);
  assert.equal(second.code, 2, again.output.slice(-3000));
  assert.match(
    again.output,
    /node halted\s.*reason="?signing our (proposal|prevote) for height 1 round 0 failed: PRIVVAL_HRS_REGRESSION: /,
  );
  assert.doesNotMatch(again.output, /signing failed; consensus halts/);
  assert.equal(again.committed.length, 0);
});
