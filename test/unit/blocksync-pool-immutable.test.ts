// The block pool's reducer never changes the state it is given: its maps are shared with the
// next state until an input writes to them, and then copied (reducer.ts's Draft).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type BlockPoolInput,
  type BlockPoolState,
  blockPoolReducer,
  DEFAULT_BLOCK_POOL_PARAMS,
  initialBlockPoolState,
} from "../../src/blocksync/index.js";
import { makeBlock } from "../fixtures/store/chain-fixture.js";

const snapshot = (s: BlockPoolState) => ({
  peers: [...s.peers.entries()],
  requests: [...s.requests.entries()],
});

test("every input leaves the state it was given as it was; an input that writes nothing shares the maps", () => {
  let state = initialBlockPoolState(1n, 0, DEFAULT_BLOCK_POOL_PARAMS);
  const inputs: BlockPoolInput[] = [
    { type: "PeerStatusReceived", time: 0, peerId: "a", base: 1n, height: 30n },
    { type: "PeerStatusReceived", time: 0, peerId: "b", base: 1n, height: 30n },
    { type: "BlockReceived", time: 1, peerId: "a", block: makeBlock(1n, []), size: 100 },
    { type: "BlockReceived", time: 1, peerId: "a", block: makeBlock(2n, []), size: 100 },
    { type: "BlockApplied", time: 2, height: 1n },
    { type: "PeerRemoved", time: 3, peerId: "b" },
    { type: "Tick", time: 40_000 },
  ];
  for (const input of inputs) {
    const before = snapshot(state);
    const next = blockPoolReducer(state, input).state;
    assert.deepEqual(snapshot(state), before, `${input.type} changed the state it was given`);
    state = next;
  }
  const quiet = blockPoolReducer(state, {
    type: "NoBlockReceived",
    time: 40_001,
    peerId: "x",
    height: 5n,
  }).state;
  assert.equal(quiet.requests, state.requests);
  assert.equal(quiet.peers, state.peers);
});
