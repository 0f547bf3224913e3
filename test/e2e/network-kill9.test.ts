// A few rounds of the kill -9 campaign (test/campaign/network-kill9.ts) in CI: random validators
// killed with SIGKILL under tx load and restarted; afterwards no double signature in any node's
// consensus log, no signer state going back, the same hashes everywhere, no committed tx lost.
// The full campaign (≥ 100 kills) runs outside CI: node --import tsx test/campaign/network-kill9.ts --kills 100
import assert from "node:assert/strict";
import { test } from "node:test";
import { runKill9Campaign } from "../campaign/network-kill9.js";

test("kill -9 campaign, 3 kills under tx load: no double sign, same hashes, no committed tx lost", {
  timeout: 480_000,
}, async () => {
  const seed = Math.floor(Math.random() * 1_000_000);
  const report = await runKill9Campaign({
    kills: 3,
    seed,
    txEveryMs: 100,
    maxDownMs: 2000,
    progressTimeoutMs: 120_000,
    log: (line) => console.log(line),
  });
  const context = `seed ${seed}: ${JSON.stringify(report, (_, v) => (typeof v === "bigint" ? String(v) : v))}`;
  assert.deepEqual(report.doubleSigns, [], context);
  assert.deepEqual(report.stateRegressions, [], context);
  assert.deepEqual(report.hashDiffs, [], context);
  assert.deepEqual(report.forks, [], context);
  assert.deepEqual(report.lostTxs, [], context);
  assert.ok(report.txsCommitted > 0, `txs were committed under the kills (${context})`);
  assert.ok(report.votesChecked > 100, `the logs held the votes (${context})`);
});
