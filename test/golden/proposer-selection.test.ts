// Proposer sequences from CometBFT v0.34's types/validator_set_test.go (reference §8), replayed
// on our validator set: the arithmetic must match Go's bit for bit for these to come out right.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TOTAL_VOTING_POWER } from "../../src/types/proposer-priority.js";
import { type Validator, ValidatorSet } from "../../src/types/validator-set.js";
import type { PublicKey } from "../../src/wire/generated/tendermint/crypto/keys.js";

const enc = new TextEncoder();
let keySeed = 0;
// Go's tests give each validator a random key; only the address matters for selection.
const someKey = (): PublicKey => ({ sum: { $case: "ed25519", ed25519: new Uint8Array(32).fill(++keySeed) } });
const member = (address: Uint8Array | string, votingPower: bigint) => ({
  address: typeof address === "string" ? enc.encode(address) : address,
  pubKey: someKey(),
  votingPower,
});
const name = (v: Validator | undefined) => new TextDecoder().decode(v?.address);
const addr = (last: number) => {
  const a = new Uint8Array(20);
  a[19] = last;
  return a;
};

test("TestProposerSelection1: foo/bar/baz with 1000/300/330 propose in Go's order for 99 heights", () => {
  const expected = (
    "foo baz foo bar foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo foo baz foo bar " +
    "foo foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo " +
    "bar foo baz foo foo foo baz bar foo foo foo baz foo bar foo foo baz foo bar foo foo baz foo bar foo " +
    "foo baz foo bar foo foo baz foo foo bar foo baz foo foo bar foo baz foo foo bar foo baz foo foo"
  ).split(" ");
  assert.equal(expected.length, 99);
  let set = ValidatorSet.create([member("foo", 1000n), member("bar", 300n), member("baz", 330n)]);
  const got: string[] = [];
  for (let i = 0; i < 99; i++) {
    got.push(name(set.getProposer()));
    set = set.incrementProposerPriority(1);
  }
  assert.deepEqual(got, expected);
});

test("TestProposerSelection2: equal powers rotate by address", () => {
  const list = [member(addr(0), 100n), member(addr(1), 100n), member(addr(2), 100n)];
  let set = ValidatorSet.create(list);
  for (let i = 0; i < 15; i++) {
    assert.deepEqual(set.getProposer()?.address, addr(i % 3), `height ${i}`);
    set = set.incrementProposerPriority(1);
  }
});

test("TestProposerSelection2: 400 vs 100/100 proposes once, then the smallest address", () => {
  let set = ValidatorSet.create([member(addr(0), 100n), member(addr(1), 100n), member(addr(2), 400n)]);
  assert.deepEqual(set.getProposer()?.address, addr(2));
  set = set.incrementProposerPriority(1);
  assert.deepEqual(set.getProposer()?.address, addr(0));
});

test("TestProposerSelection2: 401 vs 100/100 proposes twice in a row", () => {
  let set = ValidatorSet.create([member(addr(0), 100n), member(addr(1), 100n), member(addr(2), 401n)]);
  assert.deepEqual(set.getProposer()?.address, addr(2));
  set = set.incrementProposerPriority(1);
  assert.deepEqual(set.getProposer()?.address, addr(2));
  set = set.incrementProposerPriority(1);
  assert.deepEqual(set.getProposer()?.address, addr(0));
});

test("TestProposerSelection2: powers 4/5/3 propose 40/50/30 times in 120 heights", () => {
  let set = ValidatorSet.create([member(addr(0), 4n), member(addr(1), 5n), member(addr(2), 3n)]);
  const counts = [0, 0, 0];
  for (let i = 0; i < 120; i++) {
    const last = set.getProposer()?.address[19] as number;
    counts[last] = (counts[last] as number) + 1;
    set = set.incrementProposerPriority(1);
  }
  assert.deepEqual(counts, [40, 50, 30]);
});

test("TestProposerSelection3: equal powers keep their order whatever the increments, across proto round trips", () => {
  let set = ValidatorSet.create(
    ["avalidator_address12", "bvalidator_address12", "cvalidator_address12", "dvalidator_address12"].map(
      (a) => member(a, 1n),
    ),
  );
  const order: string[] = [];
  for (let i = 0; i < 4; i++) {
    order.push(name(set.getProposer()));
    set = set.incrementProposerPriority(1);
  }
  assert.deepEqual(order, [
    "avalidator_address12",
    "bvalidator_address12",
    "cvalidator_address12",
    "dvalidator_address12",
  ]);
  // A fixed pseudo-random schedule of increments of 1..5 (Go draws them at random).
  let state = 12345;
  let j = 0;
  for (let i = 0; i < 2000; i++) {
    assert.equal(name(set.getProposer()), order[j % 4], `step ${i}`);
    set = ValidatorSet.fromProto(set.toProto());
    assert.equal(name(set.getProposer()), order[j % 4], `step ${i} after a round trip`);
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const times = state % 3 === 0 ? (state % 5) + 1 : 1;
    set = set.incrementProposerPriority(times);
    j += times;
  }
});

// TestAveragingInIncrementProposerPriority: with zero power nothing moves but the average.
for (const [i, tc] of [
  { priorities: [1n, 2n, 3n], times: 1, avg: 2n },
  { priorities: [10n, -10n, 1n], times: 11, avg: 0n },
  { priorities: [100n, -10n, 1n], times: 1, avg: 30n }, // 91 / 3
].entries()) {
  test(`TestAveragingInIncrementProposerPriority case ${i}: every priority drops by ${tc.avg}`, () => {
    const set = ValidatorSet.fromValidators(
      ["a", "b", "c"].map((a, k) => ({ ...member(a, 0n), proposerPriority: tc.priorities[k] as bigint })),
    );
    const next = set.copyIncrementProposerPriority(tc.times);
    for (const v of set.validators) {
      assert.equal(next.getByAddress(v.address)?.validator.proposerPriority, v.proposerPriority - tc.avg);
    }
  });
}

test("TestAveragingInIncrementProposerPriorityWithVotingPower: priorities after 1..11 increments", () => {
  const [vp0, vp1, vp2] = [10n, 1n, 1n];
  const total = vp0 + vp1 + vp2;
  const base = ValidatorSet.fromValidators([
    { ...member(new Uint8Array([0]), vp0), proposerPriority: 0n },
    { ...member(new Uint8Array([1]), vp1), proposerPriority: 0n },
    { ...member(new Uint8Array([2]), vp2), proposerPriority: 0n },
  ]);
  const cases: { times: number; want: bigint[]; proposer: number }[] = [
    { times: 1, want: [vp0 - total, vp1, vp2], proposer: 0 },
    { times: 2, want: [2n * (vp0 - total), 2n * vp1, 2n * vp2], proposer: 0 },
    { times: 3, want: [3n * (vp0 - total), 3n * vp1, 3n * vp2], proposer: 0 },
    { times: 4, want: [4n * (vp0 - total), 4n * vp1, 4n * vp2], proposer: 0 },
    { times: 5, want: [4n * (vp0 - total) + vp0, 5n * vp1 - total, 5n * vp2], proposer: 1 },
    { times: 6, want: [6n * vp0 - 5n * total, 6n * vp1 - total, 6n * vp2], proposer: 0 },
    { times: 7, want: [7n * vp0 - 6n * total, 7n * vp1 - total, 7n * vp2], proposer: 0 },
    { times: 8, want: [8n * vp0 - 7n * total, 8n * vp1 - total, 8n * vp2], proposer: 0 },
    { times: 9, want: [9n * vp0 - 7n * total, 9n * vp1 - total, 9n * vp2 - total], proposer: 2 },
    { times: 10, want: [10n * vp0 - 8n * total, 10n * vp1 - total, 10n * vp2 - total], proposer: 0 },
    { times: 11, want: [11n * vp0 - 9n * total, 11n * vp1 - total, 11n * vp2 - total], proposer: 0 },
  ];
  for (const tc of cases) {
    const next = base.incrementProposerPriority(tc.times);
    assert.deepEqual(next.getProposer()?.address, new Uint8Array([tc.proposer]), `times ${tc.times}`);
    assert.deepEqual(
      next.validators.map((v) => v.proposerPriority),
      tc.want,
      `times ${tc.times}`,
    );
  }
});

test("MaxTotalVotingPower is (2^63 - 1) / 8", () => {
  assert.equal(MAX_TOTAL_VOTING_POWER, 1152921504606846975n);
});
