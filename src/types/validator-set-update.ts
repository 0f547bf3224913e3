// Applying a change set to a validator list, as v0.34's ValidatorSet.updateWithChangeSet does:
// validate every change (duplicates, negative or oversized power, unknown removals, an empty
// result, a total above MaxTotalVotingPower), give new validators the priority −1.125 × P, keep
// existing validators' priorities, merge, remove, then rescale and centre the priorities and sort
// by power. The checks run in Go's order so the same bad change set fails for the same reason.

import { upperHex } from "../bytes.js";
import { addressOfPublicKey } from "../crypto/public-key-address.js";
import type { PublicKey } from "../wire/generated/tendermint/crypto/keys.js";
import type { Validator } from "../wire/generated/tendermint/types/validator.js";
import {
  addClip,
  centrePriorities,
  compareAddresses,
  MAX_TOTAL_VOTING_POWER,
  newValidatorPriority,
  PRIORITY_WINDOW_SIZE_FACTOR,
  rescalePriorities,
} from "./proposer-priority.js";
import { ValidatorSetError } from "./validator-set-errors.js";

/** One change: power 0 removes the validator, any other power adds or updates it. */
export interface ValidatorChange {
  pubKey: PublicKey;
  votingPower: bigint;
  /** Derived from pubKey when left out (the usual case, as for ABCI ValidatorUpdates). */
  address?: Uint8Array;
}

interface IndexedChange {
  /** Position in the caller's list, for error messages. */
  index: number;
  validator: Validator;
}

const addressKey = (address: Uint8Array) =>
  Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString("latin1");

function resolveChanges(changes: readonly ValidatorChange[]): IndexedChange[] {
  return changes.map((change, index) => {
    let address = change.address;
    if (address === undefined) {
      try {
        address = addressOfPublicKey(change.pubKey);
      } catch (error) {
        throw new ValidatorSetError(
          "VALSET_INVALID_VALIDATOR",
          `validator change ${index}: ${(error as Error).message}`,
          index,
        );
      }
    }
    return {
      index,
      validator: { address, pubKey: change.pubKey, votingPower: change.votingPower, proposerPriority: 0n },
    };
  });
}

/** Go's processChanges: sort by address, reject duplicates and bad powers, split off removals. */
function splitChanges(changes: readonly ValidatorChange[]): {
  updates: IndexedChange[];
  removals: IndexedChange[];
} {
  const sorted = resolveChanges(changes).sort((a, b) =>
    compareAddresses(a.validator.address, b.validator.address),
  );
  const updates: IndexedChange[] = [];
  const removals: IndexedChange[] = [];
  let previous: IndexedChange | undefined;
  for (const change of sorted) {
    const { address, votingPower } = change.validator;
    if (previous && compareAddresses(previous.validator.address, address) === 0) {
      throw new ValidatorSetError(
        "VALSET_DUPLICATE_ADDRESS",
        `validator changes ${previous.index} and ${change.index} both change address ${upperHex(address)}`,
        change.index,
      );
    }
    if (votingPower < 0n) {
      throw new ValidatorSetError(
        "VALSET_NEGATIVE_POWER",
        `validator change ${change.index} (${upperHex(address)}): voting power can't be negative, got ${votingPower}`,
        change.index,
      );
    }
    if (votingPower > MAX_TOTAL_VOTING_POWER) {
      throw new ValidatorSetError(
        "VALSET_POWER_TOO_HIGH",
        `validator change ${change.index} (${upperHex(address)}): voting power can't be higher than ${MAX_TOTAL_VOTING_POWER}, got ${votingPower}`,
        change.index,
      );
    }
    (votingPower === 0n ? removals : updates).push(change);
    previous = change;
  }
  return { updates, removals };
}

/**
 * The validators after the changes, with rescaled and centred priorities, sorted by power
 * descending then address. `current` is the set's list in any order; it is not modified.
 */
export function applyChangeSet(
  current: readonly Validator[],
  currentTotal: bigint,
  changes: readonly ValidatorChange[],
  allowRemovals: boolean,
): Validator[] {
  const { updates, removals } = splitChanges(changes);
  if (!allowRemovals && removals.length > 0) {
    const first = removals[0] as IndexedChange;
    throw new ValidatorSetError(
      "VALSET_REMOVAL_NOT_ALLOWED",
      `validator change ${first.index} (${upperHex(first.validator.address)}) has voting power 0, which is not allowed here`,
      first.index,
    );
  }

  const byAddress = new Map<string, Validator>();
  for (const v of current) byAddress.set(addressKey(v.address), v);
  const existing = (c: IndexedChange) => byAddress.get(addressKey(c.validator.address));

  const newCount = updates.filter((u) => existing(u) === undefined).length;
  if (newCount === 0 && current.length === removals.length) {
    throw new ValidatorSetError("VALSET_EMPTY", "applying the validator changes would leave the set empty");
  }

  // Go's verifyRemovals.
  let removedPower = 0n;
  for (const removal of removals) {
    const found = existing(removal);
    if (found === undefined) {
      throw new ValidatorSetError(
        "VALSET_UNKNOWN_REMOVAL",
        `validator change ${removal.index}: cannot remove ${upperHex(removal.validator.address)}, it is not in the set`,
        removal.index,
      );
    }
    removedPower += found.votingPower;
  }

  // Go's verifyUpdates: apply decreases before increases so a valid swap never looks like overflow.
  const delta = (u: IndexedChange) => u.validator.votingPower - (existing(u)?.votingPower ?? 0n);
  const deltas = updates.map(delta).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let total = currentTotal - removedPower;
  for (const d of deltas) {
    total += d;
    if (total > MAX_TOTAL_VOTING_POWER) {
      throw new ValidatorSetError(
        "VALSET_TOTAL_POWER_TOO_HIGH",
        `the validator changes would raise the total voting power above the maximum ${MAX_TOTAL_VOTING_POWER}`,
      );
    }
  }
  const totalAfterUpdatesBeforeRemovals = total + removedPower;

  // Go's computeNewPriorities, applyUpdates and applyRemovals.
  const merged = new Map(byAddress);
  for (const update of updates) {
    const found = existing(update);
    merged.set(addressKey(update.validator.address), {
      ...update.validator,
      proposerPriority: found
        ? found.proposerPriority
        : newValidatorPriority(totalAfterUpdatesBeforeRemovals),
    });
  }
  for (const removal of removals) merged.delete(addressKey(removal.validator.address));

  const result = [...merged.values()];
  let newTotal = 0n;
  for (const v of result) newTotal = addClip(newTotal, v.votingPower);
  if (newTotal > MAX_TOTAL_VOTING_POWER) {
    throw new ValidatorSetError(
      "VALSET_TOTAL_POWER_TOO_HIGH",
      `total voting power ${newTotal} exceeds the maximum ${MAX_TOTAL_VOTING_POWER}`,
    );
  }
  const priorities = result.map((v) => v.proposerPriority);
  rescalePriorities(priorities, PRIORITY_WINDOW_SIZE_FACTOR * newTotal);
  centrePriorities(priorities);
  return sortByVotingPower(result.map((v, i) => ({ ...v, proposerPriority: priorities[i] as bigint })));
}

/** Power descending, then address ascending: the order of hashing, commits and BeginBlock. */
export function sortByVotingPower(validators: Validator[]): Validator[] {
  return validators.sort((a, b) =>
    a.votingPower === b.votingPower
      ? compareAddresses(a.address, b.address)
      : a.votingPower > b.votingPower
        ? -1
        : 1,
  );
}
