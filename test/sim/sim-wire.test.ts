// The simulated wire: every message crosses the node's codec once, and every receiver of it
// (and of a relay of what was decoded) gets that one decoded copy; a part under another round
// crosses again, and a message the codec refuses is refused for every receiver.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ConsensusMessage } from "../../src/consensus/gossip/message.js";
import { encodeConsensusMessage } from "../../src/p2p/consensus-wire.js";
import { SignedMsgType, type Vote } from "../../src/wire/generated/tendermint/types/types.js";
import { announcementKey, WireCrossing } from "./sim-wire.js";

const vote: Vote = {
  type: SignedMsgType.SIGNED_MSG_TYPE_PREVOTE,
  height: 7n,
  round: 1,
  blockId: {
    hash: new Uint8Array(32).fill(1),
    partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) },
  },
  timestamp: { seconds: 1_700_000_007n, nanos: 5 },
  validatorAddress: new Uint8Array(20).fill(3),
  validatorIndex: 2,
  signature: new Uint8Array(64).fill(4),
};
const part = {
  index: 0,
  bytes: new Uint8Array([1, 2, 3]),
  proof: { total: 1n, index: 0n, leafHash: new Uint8Array(32), aunts: [] },
};

const decodedOf = (wire: WireCrossing, m: ConsensusMessage) => {
  const crossed = wire.cross(m);
  assert.equal(crossed.kind, "ok", crossed.kind === "invalid" ? crossed.reason : "");
  return crossed.kind === "ok" ? crossed.message : assert.fail();
};

describe("simulation: the wire between validators", () => {
  it("encodes and decodes a broadcast once; every receiver gets the same decoded copy, equal to what was sent", () => {
    const wire = new WireCrossing();
    const sent: ConsensusMessage = { $case: "hasVote", hasVote: { height: 7n, round: 1, type: 1, index: 2 } };
    const copies = [decodedOf(wire, sent), decodedOf(wire, sent), decodedOf(wire, sent)];
    assert.deepEqual(encodeConsensusMessage(copies[0]!), encodeConsensusMessage(sent));
    assert.notEqual(copies[0], sent, "a receiver gets what came off the wire, not the sender's object");
    assert.ok(copies.every((c) => c === copies[0]));
    assert.deepEqual({ encoded: wire.encoded, reused: wire.reused }, { encoded: 1, reused: 2 });
  });

  it("knows a vote by the vote object: a new wrapper of it, or of the copy a receiver relays, crosses no more", () => {
    const wire = new WireCrossing();
    const first = decodedOf(wire, { $case: "vote", vote: { vote } });
    assert.deepEqual(
      encodeConsensusMessage(first),
      encodeConsensusMessage({ $case: "vote", vote: { vote } }),
    );
    decodedOf(wire, { $case: "vote", vote: { vote } });
    const relayed = first.$case === "vote" ? first.vote.vote : undefined;
    assert.equal(decodedOf(wire, { $case: "vote", vote: { vote: relayed } }), first);
    assert.deepEqual({ encoded: wire.encoded, reused: wire.reused }, { encoded: 1, reused: 2 });
    // Another vote with equal fields is another object: it crosses for itself.
    decodedOf(wire, { $case: "vote", vote: { vote: { ...vote } } });
    assert.equal(wire.encoded, 2);
  });

  it("knows an announcement by its fields: equal ones made anew by each announcer cross once, one field apart crosses again", () => {
    const wire = new WireCrossing();
    const hasVote = (index: number): ConsensusMessage => ({
      $case: "hasVote",
      hasVote: { height: 7n, round: 1, type: 1, index },
    });
    const first = decodedOf(wire, hasVote(2));
    for (let announcer = 1; announcer < 4; announcer++) assert.equal(decodedOf(wire, hasVote(2)), first);
    const other = decodedOf(wire, hasVote(3));
    assert.ok(other.$case === "hasVote" && other.hasVote.index === 3);
    const validBlock = (elems: bigint): ConsensusMessage => ({
      $case: "newValidBlock",
      newValidBlock: {
        height: 7n,
        round: 1,
        blockPartSetHeader: { total: 3, hash: new Uint8Array(32).fill(5) },
        blockParts: { bits: 3n, elems: [elems] },
        isCommit: false,
      },
    });
    const partsOf = (m: ConsensusMessage) =>
      m.$case === "newValidBlock" ? m.newValidBlock.blockParts?.elems : [];
    assert.deepEqual(partsOf(decodedOf(wire, validBlock(5n))), [5n]);
    assert.deepEqual(partsOf(decodedOf(wire, validBlock(7n))), [7n], "another bit array is another message");
    assert.deepEqual(partsOf(decodedOf(wire, validBlock(5n))), [5n]);
    assert.deepEqual({ encoded: wire.encoded, reused: wire.reused }, { encoded: 4, reused: 4 });
  });

  it("keys a HasVote, a NewRoundStep and a NewValidBlock by every field: each one changed gives another key", () => {
    const hasVote = { height: 7n, round: 1, type: 1, index: 2 };
    const step = { height: 7n, round: 1, step: 3, secondsSinceStartTime: 4n, lastCommitRound: 0 };
    const keys = [
      announcementKey({ $case: "hasVote", hasVote }),
      ...Object.keys(hasVote).map((field) =>
        announcementKey({ $case: "hasVote", hasVote: { ...hasVote, [field]: field === "height" ? 8n : 9 } }),
      ),
      announcementKey({ $case: "newRoundStep", newRoundStep: step }),
      ...Object.keys(step).map((field) =>
        announcementKey({
          $case: "newRoundStep",
          newRoundStep: { ...step, [field]: typeof step[field as keyof typeof step] === "bigint" ? 9n : 9 },
        }),
      ),
    ];
    const valid = {
      height: 7n,
      round: 1,
      blockPartSetHeader: { total: 3, hash: new Uint8Array(32).fill(5) },
      blockParts: { bits: 3n, elems: [5n] } as { bits: bigint; elems: bigint[] } | undefined,
      isCommit: false,
    };
    const hash = new Uint8Array(32).fill(5);
    hash[31] = 6;
    for (const changed of [
      valid,
      { ...valid, height: 8n },
      { ...valid, round: 2 },
      { ...valid, blockPartSetHeader: { total: 4, hash: valid.blockPartSetHeader.hash } },
      { ...valid, blockPartSetHeader: { total: 3, hash } },
      { ...valid, blockPartSetHeader: { total: 3, hash: hash.subarray(1) } },
      { ...valid, blockParts: { bits: 4n, elems: [5n] } },
      { ...valid, blockParts: { bits: 3n, elems: [7n] } },
      { ...valid, blockParts: { bits: 3n, elems: [5n, 0n] } },
      { ...valid, blockParts: undefined },
      { ...valid, isCommit: true },
    ])
      keys.push(announcementKey({ $case: "newValidBlock", newValidBlock: changed }));
    assert.ok(keys.every((k) => k !== undefined));
    assert.equal(new Set(keys).size, keys.length);
  });

  it("sends a block part under another height or round through the codec again", () => {
    const wire = new WireCrossing();
    const at = (round: number): ConsensusMessage => ({
      $case: "blockPart",
      blockPart: { height: 7n, round, part },
    });
    const r0 = decodedOf(wire, at(0));
    assert.equal(decodedOf(wire, at(0)), r0);
    const r1 = decodedOf(wire, at(1));
    assert.ok(r1.$case === "blockPart" && r1.blockPart.round === 1);
    assert.deepEqual({ encoded: wire.encoded, reused: wire.reused }, { encoded: 2, reused: 1 });
  });

  it("refuses what the node's codec refuses, for every receiver, with its reason", () => {
    const wire = new WireCrossing();
    const bad: ConsensusMessage = { $case: "vote", vote: { vote: { ...vote, round: -3 } } };
    for (let receiver = 0; receiver < 3; receiver++) {
      const crossed = wire.cross(bad);
      assert.equal(crossed.kind, "invalid");
      assert.match(
        crossed.kind === "invalid" ? crossed.reason : "",
        /^consensus channel 0x22: invalid vote: /,
      );
    }
  });

  it("hands out decoded messages frozen to the last object, so node code changing one in place throws (the memos rest on it)", () => {
    const wire = new WireCrossing();
    const decoded = decodedOf(wire, { $case: "vote", vote: { vote } });
    assert.ok(decoded.$case === "vote" && decoded.vote.vote !== undefined);
    const v = decoded.vote.vote;
    assert.throws(() => {
      (v as { round: number }).round = 2;
    }, TypeError);
    assert.throws(() => {
      (v.timestamp as { nanos: number }).nanos = 6;
    }, TypeError);
    assert.throws(() => {
      (v.blockId.partSetHeader as { total: number }).total = 2;
    }, TypeError);
    assert.equal(v.round, 1);
  });
});
