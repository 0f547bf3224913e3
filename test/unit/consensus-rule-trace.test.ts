// The traced consensus reducer (createConsensusReducer(rules, {trace: true})) reports which rules of
// Algorithm 1 fired, and otherwise folds exactly as the untraced one: same states, same effects,
// over a recorded four-validator run whose fourth height takes two rounds.
import assert from "node:assert/strict";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { createDefaultConsensusRules } from "../../src/consensus/default-rules.js";
import { createConsensusReducer } from "../../src/consensus/reducer.js";
import { openSimulationTimeline } from "../../streams/replay-console/console-sources.js";

const RUN = fileURLToPath(new URL("../fixtures/replay/two-rounds/", import.meta.url));

test("the traced reducer folds as the untraced one and names the rules that fired", async () => {
  const { timeline } = await openSimulationTimeline(RUN, 0);
  const plain = createConsensusReducer(createDefaultConsensusRules());
  const traced = createConsensusReducer(createDefaultConsensusRules(), { trace: true });
  let state = timeline.initial;
  const fired: string[] = [];
  for (const input of timeline.inputs) {
    const a = plain(state, input);
    const b = traced(state, input);
    assert.deepEqual(b.state, a.state);
    assert.deepEqual(b.effects, a.effects);
    assert.equal(a.fired, undefined, "the untraced reducer lists nothing");
    fired.push(...(b.fired ?? []));
    state = a.state;
  }
  // Height 4: its proposer is silent, so round 0 times out (L57), nil polka (L44), precommits for
  // anything (L47), timeoutPrecommit starts round 1 (L65, L11); round 1 decides (L22, L36, L49).
  for (const rule of ["L11", "L22", "L36", "L44", "L47", "L49", "L49-finalize", "L57", "L65"]) {
    assert.ok(fired.includes(rule), `${rule} fired somewhere in the run`);
  }
  const h4 = timeline.inputs.findIndex((i) => i.type === "TimeoutElapsed" && i.height === 4n && i.step === 3);
  assert.deepEqual(timeline.stepTo(h4 + 1).fired, ["L57"]);
});
