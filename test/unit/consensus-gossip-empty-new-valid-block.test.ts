// A NewValidBlock with no part set says the peer holds none of that part set, whatever we sent
// it: it replaces the bits we hold for the peer even outside the commit. CometBFT v0.34 sends one
// when it makes a fresh part set (on entering the commit step for a block it lacks, its step still
// Precommit, so IsCommit is false; or on a polka for a block it has no part of), and it has dropped
// every part that reached it before that set existed. Adding such a message to our bits (as the
// relay rule's hints are) kept those parts marked as delivered: a CometBFT node catching up from
// an rxbft peer waited at that height until something else reset them.
import assert from "node:assert/strict";
import { test } from "node:test";
import { bitsToWire } from "../../src/consensus/gossip/bit-array.js";
import type { ConsensusMessage } from "../../src/consensus/gossip/index.js";
import { RoundStep } from "../../src/consensus/round-step.js";
import {
  Driver,
  from,
  newValidBlock,
  nrs,
  OUR_TURN,
  ourState,
  PEER,
  partsWith,
  proposalAt,
  SPLIT,
  sends,
  storedSplitBlockLoaded,
  T,
} from "./consensus-gossip-fixture.js";

const partsSent = (messages: readonly ConsensusMessage[]) =>
  messages.flatMap((m) =>
    m.$case === "blockPart" ? [`${m.blockPart.height}/${m.blockPart.round}/${m.blockPart.part.index}`] : [],
  );

test("a peer catching up from our store whose NewValidBlock has no part gets the height's parts again", () => {
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: ourState({ height: 9n }) });
  from(d, nrs(4n, 0, RoundStep.NewHeight));
  const loaded = d.feed(storedSplitBlockLoaded(4n, T + 50));
  assert.deepEqual(
    partsSent(sends(loaded, PEER)),
    ["4/0/0", "4/0/1", "4/0/2"],
    "sent before it expects them",
  );
  // CometBFT v0.34 entering the commit step for the block it lacks: a fresh part set, IsCommit false.
  const fresh: ConsensusMessage = {
    $case: "newValidBlock",
    newValidBlock: {
      height: 4n,
      round: 0,
      blockPartSetHeader: SPLIT.header,
      blockParts: bitsToWire(new Uint8Array(SPLIT.header.total)),
      isCommit: false,
    },
  };
  assert.deepEqual(partsSent(sends(from(d, fresh, T + 60), PEER)), ["4/0/0", "4/0/1", "4/0/2"]);
});

test("at our height, an empty NewValidBlock outside the commit clears what we believed sent; a hint with parts still adds", () => {
  const d = new Driver();
  d.feed({ type: "GossipPeerAdded", nowMs: T, peerId: PEER });
  d.feed({ type: "OurStateChanged", nowMs: T, state: ourState({ height: 5n, ...OUR_TURN }) });
  from(d, nrs(5n, 0, RoundStep.Propose));
  const our = ourState({
    height: 5n,
    ...OUR_TURN,
    proposal: proposalAt(5n, 0),
    proposalParts: partsWith([0, 1, 2]),
  });
  assert.deepEqual(partsSent(sends(d.feed({ type: "OurStateChanged", nowMs: T, state: our }), PEER)), [
    "5/0/0",
    "5/0/1",
    "5/0/2",
  ]);
  assert.deepEqual(partsSent(sends(from(d, newValidBlock([1, 0, 0]), T + 10), PEER)), [], "a hint adds");
  assert.deepEqual(
    partsSent(sends(from(d, newValidBlock([0, 0, 0]), T + 20), PEER)),
    ["5/0/0", "5/0/1", "5/0/2"],
    "an empty set replaces: every part goes again",
  );
});
