// Merlin/STROBE-128 against the two published gtank/merlin (merlin_test.go) vectors: the
// secret-connection challenge is only as right as this transcript.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MerlinTranscript } from "../../src/p2p/merlin/transcript.js";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

test("merlin: simple transcript (TestSimpleTranscript)", () => {
  const t = new MerlinTranscript("test protocol");
  t.appendMessage("some label", "some data");
  assert.equal(
    hex(t.challengeBytes("challenge", 32)),
    "d5a21972d0d5fe320c0d263fac7fffb8145aa640af6e9bca177c03c7efcf0615",
  );
});

test("merlin: complex transcript crossing many STROBE blocks (TestComplexTranscript)", () => {
  const t = new MerlinTranscript("test protocol");
  t.appendMessage("step1", "some data");
  const big = new Uint8Array(1024).fill(0x63);
  let challenge: Uint8Array = new Uint8Array(32);
  for (let i = 0; i < 32; i++) {
    challenge = t.challengeBytes("challenge", 32);
    t.appendMessage("bigdata", big);
    t.appendMessage("challengedata", challenge);
  }
  assert.equal(hex(challenge), "a8c933f54fae76e3f9bea93648c1308e7dfa2152dd51674ff3ca438351cf003c");
});

test("merlin: different labels give different challenges", () => {
  const a = new MerlinTranscript("x");
  const b = new MerlinTranscript("y");
  assert.notEqual(hex(a.challengeBytes("c", 32)), hex(b.challengeBytes("c", 32)));
});
