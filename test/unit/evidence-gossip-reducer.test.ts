// The evidence gossip reducer, input by input: one item per message, one in flight per peer,
// only to peers above the evidence height and within max age, a wait for peers not yet there
// and for full queues, and a walk from the front again every broadcast interval.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type EvidenceGossipEffect,
  type EvidenceGossipInput,
  type EvidenceGossipState,
  evidenceGossipReducer,
  initialEvidenceGossipState,
} from "../../src/evidence-gossip/index.js";
import { CHANNEL_EVIDENCE } from "../../src/p2p/channels.js";
import { encodeEvidenceMessage } from "../../src/p2p/evidence-wire.js";
import { wrapDuplicateVoteEvidence } from "../../src/types/evidence.js";
import type { Evidence } from "../../src/wire/generated/tendermint/types/evidence.js";

const config = { broadcastIntervalMs: 10_000, retryMs: 100, maxAgeNumBlocks: 10n };
const evidence = (n: number): Evidence =>
  wrapDuplicateVoteEvidence({
    voteA: undefined,
    voteB: undefined,
    totalVotingPower: BigInt(n),
    validatorPower: 1n,
    timestamp: { seconds: 1n, nanos: 0 },
  });
const pending = (n: number, height: bigint): EvidenceGossipInput => ({
  type: "EvidenceBecamePending",
  key: `K${n}`,
  height,
  evidence: evidence(n),
});
const added = (peerId: string, peerHeight?: bigint): EvidenceGossipInput => ({
  type: "EvidencePeerAdded",
  peerId,
  peerHeight,
});
const finished = (
  peerId: string,
  seq: number,
  delivered = true,
  peerHeight?: bigint,
): EvidenceGossipInput => ({
  type: "EvidenceSendFinished",
  peerId,
  seq,
  delivered,
  peerHeight,
});
const send = (peerId: string, seq: number, n: number): EvidenceGossipEffect => ({
  type: "SendEvidence",
  peerId,
  channelId: CHANNEL_EVIDENCE,
  seq,
  message: encodeEvidenceMessage(evidence(n)),
});
const retry = (peerId: string): EvidenceGossipEffect => ({
  type: "ScheduleEvidenceRetry",
  peerId,
  afterMs: 100,
});
const rebroadcast = (peerId: string, timer: number): EvidenceGossipEffect => ({
  type: "ScheduleEvidenceRebroadcast",
  peerId,
  afterMs: 10_000,
  timer,
});

function steps(
  rows: [EvidenceGossipInput, EvidenceGossipEffect[]][],
  start = initialEvidenceGossipState(config),
) {
  let state: EvidenceGossipState = start;
  for (const [i, [input, expected]] of rows.entries()) {
    const t = evidenceGossipReducer(state, input);
    assert.deepEqual(t.effects, expected, `row ${i} (${input.type})`);
    state = t.state;
  }
  return state;
}

describe("evidence gossip reducer", () => {
  test("one item per message, in order, then a rebroadcast from the front after the interval", () => {
    steps([
      [added("A", 10n), []], // nothing pending: idle, no timer
      [pending(1, 5n), [send("A", 0, 1)]],
      [pending(2, 6n), []],
      [finished("A", 0, true, 10n), [send("A", 1, 2)]],
      [finished("A", 1, true, 10n), [rebroadcast("A", 1)]],
      [{ type: "EvidenceRebroadcastElapsed", peerId: "A", timer: 1, peerHeight: 10n }, [send("A", 0, 1)]],
      [finished("A", 0, true, 10n), [send("A", 1, 2)]],
      [finished("A", 1, true, 10n), [rebroadcast("A", 2)]],
      // new evidence wakes the idle walk at once; the older timer no longer counts
      [pending(3, 7n), [send("A", 2, 3)]],
      [finished("A", 2, true, 10n), [rebroadcast("A", 3)]],
      [{ type: "EvidenceRebroadcastElapsed", peerId: "A", timer: 2, peerHeight: 10n }, []],
    ]);
  });

  test("a peer not above the evidence height waits retryMs; one too far above skips it", () => {
    steps([
      [pending(1, 5n), []],
      [pending(2, 20n), []],
      [added("A", 5n), [retry("A")]], // height 5 is not above 5
      [{ type: "EvidenceRetryElapsed", peerId: "A", peerHeight: 6n }, [send("A", 0, 1)]],
      [finished("A", 0, true, 6n), [retry("A")]], // 6 ≤ 20
      [{ type: "EvidenceRetryElapsed", peerId: "A", peerHeight: 21n }, [send("A", 1, 2)]],
    ]);
    steps([
      [pending(1, 5n), []],
      [pending(2, 20n), []],
      [added("B", 21n), [send("B", 1, 2)]], // 21 − 5 > max age 10: item 1 is skipped
    ]);
  });

  test("a peer of unknown height is sent to; a full queue retries the same item", () => {
    steps([
      [pending(1, 5n), []],
      [added("A"), [send("A", 0, 1)]],
      [finished("A", 0, false), [retry("A")]],
      [{ type: "EvidenceRetryElapsed", peerId: "A", peerHeight: undefined }, [send("A", 0, 1)]],
    ]);
  });

  test("committed or expired evidence leaves the walk; stale answers and unknown peers change nothing", () => {
    const s = steps([
      [pending(1, 5n), []],
      [pending(2, 5n), []],
      [added("A"), [send("A", 0, 1)]],
      [{ type: "EvidenceLeftPending", keys: ["K1", "K2", "K9"] }, []],
      [finished("A", 0), []], // nothing left: idle without a timer
      [finished("A", 0), []],
      [finished("B", 0), []],
      [{ type: "EvidenceRetryElapsed", peerId: "A", peerHeight: 1n }, []],
      [pending(1, 5n), [send("A", 2, 1)]], // the same evidence pending again is new to the walk
      [{ type: "EvidencePeerRemoved", peerId: "A" }, []],
      [finished("A", 2), []],
    ]);
    assert.equal(s.peers.size, 0);
    assert.equal(s.items.size, 1);
  });
});
