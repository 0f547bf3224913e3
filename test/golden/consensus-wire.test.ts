// The consensus reactor's wire (channels 0x20–0x23) against v0.34.35's TestConsMsgsVectors: each
// of the nine variants built as a typed message encodes to the vector's bytes and decodes back;
// the decoder applies v0.34's ValidateBasic, names the channel of each variant, and rejects
// malformed bit arrays and oversized messages with a reason naming the channel and the field.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  type ConsensusMessage,
  channelOf,
  decodeConsensusWire,
  encodeConsensusMessage,
} from "../../src/p2p/consensus-wire.js";

const repo = JSON.parse(
  readFileSync(new URL("../fixtures/p2p/repo-message-vectors.json", import.meta.url), "utf8"),
);
const vectors: { input: string; hex: string }[] =
  repo["consensus (consensus/msgs_test.go TestConsMsgsVectors; tendermint.consensus.Message)"];
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (s: string) => new Uint8Array(Buffer.from(s, "hex"));
const ascii = (s: string) => new TextEncoder().encode(s);

const HASH = ascii("add_more_exclamation_marks_code-");
const PSH = { total: 1, hash: HASH };
const BLOCK_ID = { hash: HASH, partSetHeader: PSH };
const TIME = { seconds: 1535630400n, nanos: 0 };
const MAX_I64 = 9223372036854775807n;
const MAX_I32 = 2147483647;

const typed: ConsensusMessage[] = [
  {
    $case: "newRoundStep",
    newRoundStep: { height: 1n, round: 1, step: 1, secondsSinceStartTime: 1n, lastCommitRound: 1 },
  },
  {
    $case: "newRoundStep",
    newRoundStep: {
      height: MAX_I64,
      round: MAX_I32,
      step: 4294967295,
      secondsSinceStartTime: MAX_I64,
      lastCommitRound: MAX_I32,
    },
  },
  {
    $case: "newValidBlock",
    newValidBlock: {
      height: 1n,
      round: 1,
      blockPartSetHeader: PSH,
      blockParts: { bits: 1n, elems: [0n] },
      isCommit: false,
    },
  },
  {
    $case: "proposal",
    proposal: {
      proposal: {
        type: 32,
        height: 1n,
        round: 1,
        polRound: 1,
        blockId: BLOCK_ID,
        timestamp: TIME,
        signature: ascii("add_more_exclamation"),
      },
    },
  },
  {
    $case: "proposalPol",
    proposalPol: { height: 1n, proposalPolRound: 1, proposalPol: { bits: 0n, elems: [] } },
  },
  {
    $case: "blockPart",
    blockPart: {
      height: 1n,
      round: 1,
      part: { index: 1, bytes: ascii("test"), proof: { total: 1n, index: 1n, leafHash: HASH, aunts: [] } },
    },
  },
  {
    $case: "vote",
    vote: {
      vote: {
        type: 2,
        height: 1n,
        round: 0,
        blockId: BLOCK_ID,
        timestamp: TIME,
        validatorAddress: ascii("add_more_exclamation"),
        validatorIndex: 1,
        signature: new Uint8Array(0),
      },
    },
  },
  { $case: "hasVote", hasVote: { height: 1n, round: 1, type: 1, index: 1 } },
  { $case: "hasVote", hasVote: { height: MAX_I64, round: MAX_I32, type: 1, index: MAX_I32 } },
  { $case: "voteSetMaj23", voteSetMaj23: { height: 1n, round: 1, type: 1, blockId: BLOCK_ID } },
  {
    $case: "voteSetBits",
    voteSetBits: { height: 1n, round: 1, type: 1, blockId: BLOCK_ID, votes: { bits: 1n, elems: [0n] } },
  },
];

test("TestConsMsgsVectors: every variant encodes to v0.34's bytes and decodes back", () => {
  assert.equal(vectors.length, typed.length, "one typed message per vector");
  for (let i = 0; i < vectors.length; i++) {
    assert.equal(hex(encodeConsensusMessage(typed[i]!)), vectors[i]!.hex, vectors[i]!.input);
  }
});

test("decode: v0.34's ValidateBasic outcome for each vector, on the variant's own channel", () => {
  const outcomes = vectors.map((v, i) => {
    const d = decodeConsensusWire(bytes(v.hex), channelOf(typed[i]!));
    return d.kind === "ok" ? "ok" : d.reason;
  });
  // The vectors are wire vectors, not all valid messages: v0.34 itself would stop a peer sending
  // the max-values NewRoundStep (step 4294967295), the proposal with pol_round = round, the empty
  // POL bit array and the unsigned vote.
  assert.equal(outcomes[0], "ok");
  assert.match(outcomes[1]!, /newRoundStep\.step must be a round step 1\.\.8/);
  assert.equal(outcomes[2], "ok");
  assert.match(outcomes[3]!, /proposal\.polRound must be below the round/);
  assert.match(outcomes[4]!, /proposalPol\.proposalPol must not be empty/);
  assert.equal(outcomes[5], "ok");
  assert.match(outcomes[6]!, /invalid vote: vote\.signature/);
  assert.equal(outcomes[7], "ok");
  assert.equal(outcomes[8], "ok");
  assert.equal(outcomes[9], "ok");
  assert.equal(outcomes[10], "ok");
  const back = decodeConsensusWire(bytes(vectors[9]!.hex), 0x20);
  assert.ok(back.kind === "ok");
  assert.deepEqual(back.message, typed[9]);
});

test("channels as v0.34 sends them; a variant on another channel is flagged, not rejected", () => {
  assert.deepEqual(
    typed.map((m) => channelOf(m)),
    [0x20, 0x20, 0x20, 0x21, 0x21, 0x21, 0x22, 0x20, 0x20, 0x20, 0x23],
  );
  const onVoteChannel = decodeConsensusWire(bytes(vectors[0]!.hex), 0x22);
  assert.ok(onVoteChannel.kind === "ok" && !onVoteChannel.channelMatches);
});

test("rejections name the channel and the field", () => {
  const bad = (m: ConsensusMessage, channel = channelOf(m)) => {
    const d = decodeConsensusWire(encodeConsensusMessage(m), channel);
    assert.equal(
      d.kind,
      "invalid",
      JSON.stringify(m, (_k, v) => (typeof v === "bigint" ? String(v) : v)),
    );
    return d.kind === "invalid" ? d.reason : "";
  };
  assert.match(
    bad({ $case: "hasVote", hasVote: { height: 1n, round: 0, type: 32, index: 0 } }),
    /consensus channel 0x20: invalid hasVote: hasVote\.type must be prevote \(1\) or precommit \(2\)/,
  );
  assert.match(
    bad({
      $case: "newRoundStep",
      newRoundStep: { height: 2n, round: 0, step: 3, secondsSinceStartTime: 0n, lastCommitRound: -2 },
    }),
    /lastCommitRound must be ≥ -1/,
  );
  // A bit array whose word count does not match its bit count.
  assert.match(
    bad({
      $case: "voteSetBits",
      voteSetBits: { height: 1n, round: 0, type: 2, blockId: BLOCK_ID, votes: { bits: 65n, elems: [1n] } },
    }),
    /voteSetBits\.votes bit array of 65 bits carries 1 words, expected 2/,
  );
  assert.match(
    bad({
      $case: "voteSetBits",
      voteSetBits: { height: 1n, round: 0, type: 2, blockId: BLOCK_ID, votes: { bits: 10001n, elems: [] } },
    }),
    /exceeds 10000/,
  );
  assert.match(
    bad({
      $case: "newValidBlock",
      newValidBlock: {
        height: 1n,
        round: 0,
        blockPartSetHeader: { total: 2, hash: HASH },
        blockParts: { bits: 1n, elems: [0n] },
        isCommit: false,
      },
    }),
    /has 1 bits but the part set has 2 parts/,
  );
  const oversized = decodeConsensusWire(new Uint8Array(1048577), 0x21);
  assert.ok(oversized.kind === "invalid" && /exceeds 1048576/.test(oversized.reason));
  const garbage = decodeConsensusWire(bytes("ff"), 0x20);
  assert.ok(garbage.kind === "invalid" && /undecodable/.test(garbage.reason));
  const empty = decodeConsensusWire(new Uint8Array(0), 0x20);
  assert.ok(empty.kind === "invalid" && /no known variant/.test(empty.reason));
});
