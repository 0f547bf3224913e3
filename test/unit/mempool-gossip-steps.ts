// Folds mempool gossip inputs one by one through the reducer, checking each input's effects: the
// shape of every mempool-gossip reducer test, kept in one place.
import assert from "node:assert/strict";
import {
  initialMempoolGossipState,
  type MempoolGossipEffect,
  type MempoolGossipInput,
  type MempoolGossipState,
  mempoolGossipReducer,
} from "../../src/mempool-gossip/index.js";

/** Each row: an input and the effects it must produce. Returns the state after the last row. */
export function steps(
  rows: [MempoolGossipInput, MempoolGossipEffect[]][],
  start: MempoolGossipState = initialMempoolGossipState(),
): MempoolGossipState {
  let state = start;
  for (const [i, [input, expected]] of rows.entries()) {
    const t = mempoolGossipReducer(state, input);
    assert.deepEqual(t.effects, expected, `row ${i} (${input.type})`);
    state = t.state;
  }
  return state;
}
