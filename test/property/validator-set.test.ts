// Invariants of v0.34 validator sets under arbitrary sequences of updates and increments.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  INT64_MAX,
  INT64_MIN,
  MAX_TOTAL_VOTING_POWER,
  maxMinPriorityDiff,
  rescalePriorities,
} from "../../src/types/proposer-priority.js";
import { type ValidatorChange, ValidatorSet } from "../../src/types/validator-set.js";
import { ValidatorSetError } from "../../src/types/validator-set-errors.js";

const ADDRESSES = Array.from({ length: 10 }, (_, i) => {
  const a = new Uint8Array(20);
  a[0] = i * 17;
  a[19] = i;
  return a;
});

// Mostly small powers, sometimes huge ones near the bound, sometimes removals.
const power = fc.oneof(
  { weight: 6, arbitrary: fc.bigInt(1n, 1000n) },
  { weight: 2, arbitrary: fc.constant(0n) },
  { weight: 1, arbitrary: fc.bigInt(1n, MAX_TOTAL_VOTING_POWER / 4n) },
  { weight: 1, arbitrary: fc.bigInt(MAX_TOTAL_VOTING_POWER / 2n, MAX_TOTAL_VOTING_POWER + 2n) },
  { weight: 1, arbitrary: fc.bigInt(-3n, -1n) },
);
const changeArb = fc.record({ who: fc.nat(ADDRESSES.length - 1), votingPower: power });
const toChange = (c: { who: number; votingPower: bigint }): ValidatorChange => ({
  address: ADDRESSES[c.who]!,
  pubKey: { sum: { $case: "ed25519", ed25519: new Uint8Array(32).fill(c.who + 1) } },
  votingPower: c.votingPower,
});
const initial = fc.uniqueArray(
  fc.record({ who: fc.nat(ADDRESSES.length - 1), votingPower: fc.bigInt(1n, 10_000n) }),
  {
    minLength: 1,
    maxLength: 6,
    selector: (c) => c.who,
  },
);
const op = fc.oneof(
  fc.record({ kind: fc.constant("increment" as const), times: fc.integer({ min: 1, max: 6 }) }),
  fc.record({
    kind: fc.constant("update" as const),
    changes: fc.array(changeArb, { minLength: 1, maxLength: 4 }),
  }),
);

function checkInvariants(set: ValidatorSet, where: string): void {
  const n = BigInt(set.size);
  assert.ok(set.size > 0, `${where}: never empty`);
  let total = 0n;
  let sum = 0n;
  for (const [i, v] of set.validators.entries()) {
    total += v.votingPower;
    sum += v.proposerPriority;
    assert.ok(v.votingPower > 0n, `${where}: members have positive power`);
    assert.ok(v.proposerPriority >= INT64_MIN && v.proposerPriority <= INT64_MAX, `${where}: int64 priority`);
    const next = set.validators[i + 1];
    if (next) {
      const ordered =
        v.votingPower > next.votingPower ||
        (v.votingPower === next.votingPower && Buffer.compare(v.address, next.address) < 0);
      assert.ok(ordered, `${where}: sorted by power desc, address asc`);
    }
  }
  assert.equal(set.totalVotingPower, total, `${where}: total is the sum of powers`);
  assert.ok(total <= MAX_TOTAL_VOTING_POWER, `${where}: total within MaxTotalVotingPower`);
  // Centring leaves sum - n × floor(sum / n) in [0, n); increments move power around without
  // changing the sum, so this holds after every operation.
  assert.ok(sum >= 0n && sum < n, `${where}: priorities sum to ${sum}, expected within [0, ${n})`);
  const proposer = set.getProposer();
  assert.ok(proposer && set.hasAddress(proposer.address), `${where}: the proposer is a member`);
  // Rescaling always brings the spread within the 2 × total window.
  const rescaled = set.validators.map((v) => v.proposerPriority);
  rescalePriorities(rescaled, 2n * total);
  assert.ok(maxMinPriorityDiff(rescaled) <= 2n * total, `${where}: rescale reaches the window`);
}

test("any sequence of valid updates and increments keeps the set's invariants", () => {
  fc.assert(
    fc.property(initial, fc.array(op, { maxLength: 25 }), (start, ops) => {
      let set = ValidatorSet.create(start.map(toChange));
      checkInvariants(set, "created");
      for (const [k, o] of ops.entries()) {
        if (o.kind === "increment") {
          set = set.incrementProposerPriority(o.times);
          checkInvariants(set, `after op ${k} (increment ${o.times})`);
          continue;
        }
        let next: ValidatorSet;
        try {
          next = set.updateWithChangeSet(o.changes.map(toChange));
        } catch (error) {
          // A rejected change set is a typed error and leaves nothing changed.
          assert.ok(error instanceof ValidatorSetError, String(error));
          continue;
        }
        // Right after an update the spread is within the window (rescale, then centre).
        const total = next.totalVotingPower;
        assert.ok(maxMinPriorityDiff(next.validators.map((v) => v.proposerPriority)) <= 2n * total);
        set = next.incrementProposerPriority(1); // as the state transition always does
        checkInvariants(set, `after op ${k} (update)`);
      }
    }),
    { numRuns: 200 },
  );
});

test("a change set gives the same set whatever order its changes come in", () => {
  fc.assert(
    fc.property(
      initial,
      fc.uniqueArray(changeArb, { minLength: 1, maxLength: 5, selector: (c) => c.who }),
      fc.nat(),
      (start, changes, shuffleSeed) => {
        const set = ValidatorSet.create(start.map(toChange));
        const shuffled = [...changes].sort(
          (a, b) => ((a.who * 7919 + shuffleSeed) % 101) - ((b.who * 7919 + shuffleSeed) % 101),
        );
        const run = (list: typeof changes) => {
          try {
            return set.updateWithChangeSet(list.map(toChange)).toProto();
          } catch (error) {
            return (error as ValidatorSetError).code;
          }
        };
        assert.deepEqual(run(shuffled), run(changes));
      },
    ),
    { numRuns: 200 },
  );
});

test("protobuf round trips keep sets equal and the proposer sequence unchanged", () => {
  fc.assert(
    fc.property(initial, fc.integer({ min: 1, max: 20 }), (start, steps) => {
      let a = ValidatorSet.create(start.map(toChange));
      let b = ValidatorSet.fromProto(a.toProto());
      for (let i = 0; i < steps; i++) {
        assert.deepEqual(b.getProposer(), a.getProposer());
        a = a.incrementProposerPriority(1);
        b = ValidatorSet.fromProto(b.incrementProposerPriority(1).toProto());
      }
      assert.deepEqual(b.validators, a.validators);
    }),
    { numRuns: 100 },
  );
});

test("over total × k rounds with no rescaling, each validator proposes exactly power × k times", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.record({ who: fc.nat(ADDRESSES.length - 1), votingPower: fc.bigInt(1n, 12n) }), {
        minLength: 1,
        maxLength: 5,
        selector: (c) => c.who,
      }),
      (start) => {
        let set = ValidatorSet.create(start.map(toChange));
        const total = Number(set.totalVotingPower);
        const counts = new Map<number, number>();
        for (let i = 0; i < total * 3; i++) {
          const who = set.getProposer()!.address[19]!;
          counts.set(who, (counts.get(who) ?? 0) + 1);
          set = set.incrementProposerPriority(1);
        }
        for (const c of start) {
          const got = counts.get(c.who) ?? 0;
          // Within one window of total rounds the share can differ by at most one turn at each end.
          assert.ok(Math.abs(got - Number(c.votingPower) * 3) <= 2, `validator ${c.who}: ${got} turns`);
        }
      },
    ),
    { numRuns: 100 },
  );
});
