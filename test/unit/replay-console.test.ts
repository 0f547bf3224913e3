// The replay console over a recorded run: any position's state, reached through snapshots (moving
// back), equals the state reached by folding forward from the start; moves by round and height
// land on the steps that enter them; find, timeline and errors say what they should.
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { ReplayConsole } from "../../streams/replay-console/console-commands.js";
import { openSimulationTimeline } from "../../streams/replay-console/console-sources.js";

const RUN = fileURLToPath(new URL("../fixtures/replay/two-rounds/", import.meta.url));

test("stepping back is exact: every position's state equals the forward fold's", async () => {
  const { timeline } = await openSimulationTimeline(RUN, 1, 7);
  let state = timeline.initial;
  for (let p = 1; p <= timeline.length; p++) {
    state = timeline.stepFrom(state, p).after;
    assert.deepEqual(timeline.stateAt(p), state, `position ${p}`);
  }
  for (let p = timeline.length; p >= 1; p--) {
    const back = timeline.stepTo(p);
    assert.deepEqual(back.before, timeline.stateAt(p - 1));
  }
});

test("moves by input, round and height, forward and back", async () => {
  const { timeline } = await openSimulationTimeline(RUN, 0, 5);
  const c = new ReplayConsole(timeline);
  const run = (line: string) => c.execute(line).output.join("\n");
  assert.match(run("nh"), /^position \d+\/53: height 1 round 0/);
  assert.match(run("nh 3"), /height 4 round 0/);
  const enteredHeight4 = c.position;
  const round1 = run("nr");
  assert.match(round1, /height 4 round 1 Propose/);
  assert.match(round1, /L65: OnTimeoutPrecommit/);
  assert.match(round1, /round: 0 → 1/);
  const atRound1 = c.position;
  assert.match(run("br"), /height 4 round 0/);
  assert.equal(c.position, enteredHeight4, "back-round from round 1's entry goes to round 0's entry");
  run(`goto ${atRound1}`);
  const forward = run("n");
  run("b");
  const again = run("n");
  assert.equal(again, forward, "one step back then forward shows the same step");
  assert.match(run("bh"), /height 4 round 0/);
  assert.equal(c.position, enteredHeight4);
  assert.match(run("bh"), /height 3 round 0/);
});

test("find, timeline, and clear errors", async () => {
  const { timeline } = await openSimulationTimeline(RUN, 0);
  const c = new ReplayConsole(timeline);
  const run = (line: string) => c.execute(line).output.join("\n");
  const found = run("find rule=L44");
  assert.match(found, /height 4 round 0 Precommit/);
  assert.match(found, /L44: upon 2f\+1 ⟨PREVOTE, h_p, round_p, nil⟩/);
  assert.match(found, /SignVote precommit h4 r0 .* for nil/);
  assert.match(run("find effect=CommitBlock"), /CommitBlock h4 r1/);
  assert.match(run("find type=VoteReceived"), /^no input after position 53 matches/);
  run("goto 0");
  assert.match(
    run("f type=VoteReceived validator=2 round=0 height=2"),
    /VoteReceived (pre|)(vote|commit) h2 r0 by #2/,
  );
  const tl = run("timeline 4");
  assert.match(tl, /^height 4:/);
  assert.match(tl, /r1 Propose\s+TimeoutElapsed h4 r0 PrecommitWait\s+\[L65 L11\]/);
  assert.match(run("timeline 99"), /height 99 is not in this log/);
  assert.match(run("frobnicate"), /^error: unknown command "frobnicate"/);
  assert.match(run("find colour=red"), /^error: find: unknown key "colour"/);
  assert.match(run("back x"), /^error: expected a positive count/);
  assert.equal(c.execute("quit").quit, true);
});

test("a kept simulation run says which code wrote it, or that it does not say", async () => {
  // A fold by other code than the run's may differ from the run (docs/simulation.md, seeds 10573
  // and 11434), so the console's first line names the run's code when the run recorded it.
  assert.match((await openSimulationTimeline(RUN, 0)).description, /code that wrote it not recorded/);
  const dir = mkdtempSync(join(tmpdir(), "rxbft-replay-"));
  try {
    cpSync(RUN, dir, { recursive: true });
    const file = join(dir, "scenario.json");
    const kept = JSON.parse(readFileSync(file, "utf8")) as object;
    const code = { commit: "f868deb", modified: true, fingerprint: "0123456789abcdef" };
    writeFileSync(file, JSON.stringify({ ...kept, code }));
    assert.match(
      (await openSimulationTimeline(dir, 0)).description,
      /written by commit f868deb with uncommitted changes, sources 0123456789abcdef; a fold by other code may differ/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
