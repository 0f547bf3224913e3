// Validator-set construction, updates and errors, with the expected priorities derived by hand
// from v0.34's rules (reference §8).
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TOTAL_VOTING_POWER } from "../../src/types/proposer-priority.js";
import { type Validator, type ValidatorChange, ValidatorSet } from "../../src/types/validator-set.js";
import { ValidatorSetError } from "../../src/types/validator-set-errors.js";
import type { PublicKey } from "../../src/wire/generated/tendermint/crypto/keys.js";

const enc = new TextEncoder();
const key = (n: number): PublicKey => ({ sum: { $case: "ed25519", ed25519: new Uint8Array(32).fill(n) } });
const change = (address: string, votingPower: bigint): ValidatorChange => ({
  address: enc.encode(address),
  pubKey: key(address.charCodeAt(0)),
  votingPower,
});
const names = (set: ValidatorSet) => set.validators.map((v) => new TextDecoder().decode(v.address));
const priorities = (set: ValidatorSet) => set.validators.map((v) => v.proposerPriority);
const errorWith = (code: string, index?: number) => (e: unknown) => {
  assert.ok(e instanceof ValidatorSetError, String(e));
  assert.equal(e.code, code, e.message);
  if (index !== undefined) assert.equal(e.index, index);
  return true;
};

test("a new set is sorted by power then address, centred, and incremented once", () => {
  // Both start at -(30 + 30>>3) = -33, centre to 0; one increment: a 10, b 20 → b pays 30.
  const set = ValidatorSet.create([change("a", 10n), change("b", 20n)]);
  assert.deepEqual(names(set), ["b", "a"]);
  assert.equal(set.totalVotingPower, 30n);
  assert.deepEqual(priorities(set), [-10n, 10n]);
  assert.equal(names(ValidatorSet.fromValidators([set.getProposer()!]))[0], "b");
  assert.equal(ValidatorSet.create([]).isEmpty(), true);
});

test("equal powers sort by address ascending", () => {
  const set = ValidatorSet.create([change("c", 5n), change("a", 5n), change("b", 5n), change("d", 6n)]);
  assert.deepEqual(names(set), ["d", "a", "b", "c"]);
});

test("a new validator starts at -1.125 × total and the average is a floor (Euclidean) division", () => {
  const set = ValidatorSet.create([change("a", 10n), change("b", 20n)]); // b -10, a 10
  // c joins at -(60 + 7) = -67; sum -67 over 3 → average floor(-22.33) = -23.
  const next = set.updateWithChangeSet([change("c", 30n)]);
  assert.deepEqual(names(next), ["c", "b", "a"]);
  assert.deepEqual(priorities(next), [-44n, 13n, 33n]);
  assert.equal(next.totalVotingPower, 60n);
  // The original is untouched.
  assert.deepEqual(priorities(set), [-10n, 10n]);
});

test("power 0 removes a validator; the rest are re-centred", () => {
  const set = ValidatorSet.create([change("a", 10n), change("b", 20n)]).updateWithChangeSet([
    change("c", 30n),
  ]);
  // c -44, a 33 remain; sum -11 over 2 → floor(-5.5) = -6.
  const next = set.updateWithChangeSet([change("b", 0n)]);
  assert.deepEqual(names(next), ["c", "a"]);
  assert.deepEqual(priorities(next), [-38n, 39n]);
  assert.equal(next.totalVotingPower, 40n);
  assert.equal(next.hasAddress(enc.encode("b")), false);
});

test("an existing validator keeps its priority when its power changes", () => {
  const set = ValidatorSet.create([change("a", 10n), change("b", 20n)]).updateWithChangeSet([
    change("c", 30n),
  ]);
  const next = set.updateWithChangeSet([change("a", 50n)]);
  assert.deepEqual(names(next), ["a", "c", "b"]);
  assert.deepEqual(priorities(next), [33n, -44n, 13n]);
  assert.equal(next.totalVotingPower, 100n);
});

test("a new validator's priority uses the total after updates and before removals", () => {
  // a, b, c at 10 → one increment: a -20, b 10, c 10.
  const set = ValidatorSet.create([change("a", 10n), change("b", 10n), change("c", 10n)]);
  assert.deepEqual(priorities(set), [-20n, 10n, 10n]);
  // Remove c, add d 30: P = 30 - 10 + 30 + 10 = 60 → d = -67; a -20, b 10; average floor(-77/3) = -26.
  const next = set.updateWithChangeSet([change("d", 30n), change("c", 0n)]);
  assert.deepEqual(names(next), ["d", "a", "b"]);
  assert.deepEqual(priorities(next), [-41n, 6n, 36n]);
});

test("priorities spread wider than 2 × total are divided by ceil(diff / window), truncating", () => {
  const set = ValidatorSet.fromValidators([
    { address: enc.encode("a"), pubKey: key(1), votingPower: 1n, proposerPriority: 101n },
    { address: enc.encode("b"), pubKey: key(2), votingPower: 1n, proposerPriority: -99n },
  ]);
  // window 4, diff 200 → ratio 50: 101/50 = 2, -99/50 = -1 (toward zero); average floor(1/2) = 0;
  // then a 3, b 0 → a proposes and pays 2.
  const next = set.incrementProposerPriority(1);
  assert.deepEqual(priorities(next), [1n, 0n]);
  assert.equal(names(ValidatorSet.fromValidators([next.getProposer()!]))[0], "a");
});

test("incrementing n times at once differs from n single increments only through rescaling", () => {
  const set = ValidatorSet.create([change("a", 1n), change("b", 2n), change("c", 7n)]);
  let stepwise = set;
  for (let i = 0; i < 5; i++) stepwise = stepwise.incrementProposerPriority(1);
  const once = set.incrementProposerPriority(5);
  assert.deepEqual(once.getProposer()?.address, stepwise.getProposer()?.address);
});

test("with very unequal powers, one increment of 7 and seven increments of 1 can pick different proposers", () => {
  // Found by fuzzing: rescaling runs once per call, so Go's round-by-round increments in
  // consensus are not interchangeable with a single jump (see docs/crypto.md).
  const byte = (n: number) => new Uint8Array([n]);
  const power = (who: number, votingPower: bigint): ValidatorChange => ({
    address: byte(who),
    pubKey: key(who),
    votingPower,
  });
  const set = ValidatorSet.create([
    power(4, 337430248896178n),
    power(6, 888857053541944n),
    power(9, 397678937320348n),
    power(2, 920075987648857n),
    power(1, 463597817025582n),
  ])
    .updateWithChangeSet([power(9, 908n), power(2, 537n), power(3, 379n)])
    .incrementProposerPriority(1);
  let stepwise = set;
  for (let i = 0; i < 7; i++) stepwise = stepwise.incrementProposerPriority(1);
  const jump = set.incrementProposerPriority(7);
  assert.notDeepEqual(jump.getProposer()?.address, stepwise.getProposer()?.address);
});

test("the proposer stays a member after updates, and is recomputed when it was removed", () => {
  const set = ValidatorSet.create([change("a", 10n), change("b", 20n)]);
  assert.equal(new TextDecoder().decode(set.getProposer()?.address), "b");
  const updated = set.updateWithChangeSet([change("c", 5n)]);
  assert.deepEqual(updated.getProposer(), updated.getByAddress(enc.encode("b"))?.validator);
  const removed = updated.updateWithChangeSet([change("b", 0n)]);
  const proposer = removed.getProposer();
  assert.ok(proposer && removed.hasAddress(proposer.address));
});

test("lookups by address and index", () => {
  const set = ValidatorSet.create([change("a", 1n), change("b", 2n)]);
  assert.equal(set.size, 2);
  assert.deepEqual(set.getByAddress(enc.encode("a"))?.index, 1);
  assert.equal(set.getByAddress(enc.encode("z")), undefined);
  assert.equal(set.getByIndex(0)?.votingPower, 2n);
  assert.equal(set.getByIndex(2), undefined);
  assert.equal(set.getByIndex(-1), undefined);
  assert.equal(set.getByIndex(0.5), undefined);
});

test("addresses are derived from public keys when a change leaves them out", () => {
  const pubKey: PublicKey = {
    sum: {
      $case: "ed25519",
      ed25519: new Uint8Array(Buffer.from("AT/+aaL1eB0477Mud9JMm8Sh8BIvOYlPGC9KkIUmFaE=", "base64")),
    },
  };
  const set = ValidatorSet.create([{ pubKey, votingPower: 10n }]);
  assert.equal(
    Buffer.from(set.validators[0]!.address).toString("hex").toUpperCase(),
    "A3258DCBF45DCA0DF052981870F2D1441A36D145",
  );
  // Reference §10.7: the validators hash of this single validator with power 10.
  assert.equal(
    Buffer.from(set.hash()).toString("hex").toUpperCase(),
    "8C591E1C1B36B19BD29F16971023819E0C2CCAF634CDAA81ECDD30337DCC078D",
  );
  // Removal by key alone.
  const next = set.updateWithChangeSet([
    { pubKey: key(3), votingPower: 1n },
    { pubKey, votingPower: 0n },
  ]);
  assert.equal(next.size, 1);
  assert.throws(
    () => ValidatorSet.create([{ pubKey: { sum: undefined }, votingPower: 1n }]),
    errorWith("VALSET_INVALID_VALIDATOR", 0),
  );
  assert.throws(
    () =>
      ValidatorSet.create([
        change("a", 1n),
        { pubKey: { sum: { $case: "ed25519", ed25519: new Uint8Array(31) } }, votingPower: 1n },
      ]),
    errorWith("VALSET_INVALID_VALIDATOR", 1),
  );
});

test("protobuf round trip keeps order, priorities and proposer; the total is recomputed", () => {
  const set = ValidatorSet.create([
    { pubKey: key(1), votingPower: 3n },
    { pubKey: key(2), votingPower: 5n },
    { pubKey: key(3), votingPower: 5n },
  ]).incrementProposerPriority(4);
  const proto = set.toProto();
  assert.equal(proto.totalVotingPower, 0n, "v0.34 leaves the total out of the stored form");
  assert.deepEqual(proto.proposer, { ...set.getProposer()! });
  const back = ValidatorSet.fromProto({ ...proto, totalVotingPower: 999n });
  assert.equal(back.totalVotingPower, 13n);
  assert.deepEqual(back.validators, set.validators);
  assert.deepEqual(back.getProposer(), set.getProposer());
  assert.deepEqual(back.hash(), set.hash());
  assert.deepEqual(ValidatorSet.empty().toProto(), {
    validators: [],
    proposer: undefined,
    totalVotingPower: 0n,
  });
});

test("fromProto and fromValidators refuse malformed members, naming them", () => {
  const good = ValidatorSet.create([{ pubKey: key(1), votingPower: 3n }]).toProto();
  const v = good.validators[0]!;
  assert.throws(
    () => ValidatorSet.fromProto({ ...good, validators: [{ ...v, address: v.address.subarray(0, 19) }] }),
    errorWith("VALSET_INVALID_VALIDATOR", 0),
  );
  assert.throws(
    () => ValidatorSet.fromProto({ ...good, validators: [{ ...v, pubKey: { sum: undefined } }] }),
    errorWith("VALSET_INVALID_VALIDATOR", 0),
  );
  assert.throws(() => ValidatorSet.fromValidators([v, v]), errorWith("VALSET_DUPLICATE_ADDRESS", 1));
  assert.throws(
    () => ValidatorSet.fromValidators([{ ...v, votingPower: -1n }]),
    errorWith("VALSET_NEGATIVE_POWER", 0),
  );
  const half = MAX_TOTAL_VOTING_POWER / 2n + 1n;
  assert.throws(
    () =>
      ValidatorSet.fromValidators([
        { ...v, votingPower: half },
        { ...v, address: new Uint8Array(20), votingPower: half },
      ]),
    errorWith("VALSET_TOTAL_POWER_TOO_HIGH", 1),
  );
});

test("bad change sets are rejected with the change at fault", () => {
  const set = ValidatorSet.create([change("a", 10n), change("b", 20n)]);
  assert.throws(
    () => set.updateWithChangeSet([change("c", 1n), change("d", 2n), change("c", 3n)]),
    errorWith("VALSET_DUPLICATE_ADDRESS"),
  );
  assert.throws(
    () => set.updateWithChangeSet([change("c", 1n), change("d", -1n)]),
    errorWith("VALSET_NEGATIVE_POWER", 1),
  );
  assert.throws(
    () => set.updateWithChangeSet([change("c", MAX_TOTAL_VOTING_POWER + 1n)]),
    errorWith("VALSET_POWER_TOO_HIGH", 0),
  );
  assert.throws(() => set.updateWithChangeSet([change("x", 0n)]), errorWith("VALSET_UNKNOWN_REMOVAL", 0));
  assert.throws(() => set.updateWithChangeSet([change("a", 0n), change("b", 0n)]), errorWith("VALSET_EMPTY"));
  assert.throws(
    () => ValidatorSet.create([change("a", 1n), change("b", 0n)]),
    errorWith("VALSET_REMOVAL_NOT_ALLOWED", 1),
  );
  assert.throws(() => set.incrementProposerPriority(0), errorWith("VALSET_INVALID_ARGUMENT"));
  assert.throws(() => set.incrementProposerPriority(1.5), errorWith("VALSET_INVALID_ARGUMENT"));
  assert.throws(
    () => ValidatorSet.empty().incrementProposerPriority(1),
    errorWith("VALSET_INVALID_ARGUMENT"),
  );
  assert.equal(set.updateWithChangeSet([]), set);
});

test("the total power may not exceed MaxTotalVotingPower, but decreases count before increases", () => {
  const half = MAX_TOTAL_VOTING_POWER / 2n;
  const set = ValidatorSet.create([change("a", half), change("b", half)]); // total = max - 1
  assert.equal(set.totalVotingPower, MAX_TOTAL_VOTING_POWER - 1n);
  assert.throws(() => set.updateWithChangeSet([change("c", 2n)]), errorWith("VALSET_TOTAL_POWER_TOO_HIGH"));
  // "0" sorts before "a", yet a's decrease is applied first, so no false overflow.
  const swapped = set.updateWithChangeSet([change("0", half - 10n), change("a", 1n)]);
  assert.equal(swapped.totalVotingPower, 1n + half + half - 10n);
  assert.equal(set.updateWithChangeSet([change("c", 1n)]).totalVotingPower, MAX_TOTAL_VOTING_POWER);
});

test("the validators a set holds cannot be changed through it", () => {
  const set = ValidatorSet.create([change("a", 1n)]);
  assert.throws(() => {
    (set.validators as Validator[]).push(set.validators[0]!);
  }, TypeError);
  assert.throws(() => {
    (set.validators[0] as { votingPower: bigint }).votingPower = 5n;
  }, TypeError);
});
