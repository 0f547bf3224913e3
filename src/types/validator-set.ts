// The validator set of a height: its members in v0.34's order (power descending, then address),
// their total power, proposer selection and updates (reference §8). Sets are immutable values:
// every operation returns a new set, so reducers can hold and pass them freely. Members are the
// generated tendermint.types.Validator interface, so a set converts to and from protobuf as is.

import { upperHex } from "../bytes.js";
import { ADDRESS_SIZE } from "../crypto/hash.js";
import type {
  ValidatorSet as ProtoValidatorSet,
  Validator,
} from "../wire/generated/tendermint/types/validator.js";
import { validatorSetHash } from "../wire/hashes.js";
import {
  addClip,
  compareAddresses,
  findProposerIndex,
  incrementProposerPriorities,
  MAX_TOTAL_VOTING_POWER,
} from "./proposer-priority.js";
import { ValidatorSetError } from "./validator-set-errors.js";
import { applyChangeSet, type ValidatorChange } from "./validator-set-update.js";

export type { Validator } from "../wire/generated/tendermint/types/validator.js";
export type { ValidatorChange } from "./validator-set-update.js";

const addressKey = (address: Uint8Array) =>
  Buffer.from(address.buffer, address.byteOffset, address.byteLength).toString("latin1");

function copyValidator(v: Validator): Validator {
  return Object.freeze({
    address: v.address,
    pubKey: v.pubKey,
    votingPower: v.votingPower,
    proposerPriority: v.proposerPriority,
  });
}

// The set of a protobuf object, remembered per object: a chain state's sets are converted (checked,
// copied) by the proposal-block check, the proposer rule, the next state and the evidence rules of
// every height, and its hash recomputed each time, about a twentieth of a simulated run. Sets are
// immutable and so are the chain state's protobuf objects (the reducers' purity rests on it), so
// one object always makes an equal set; a WeakMap holds nothing alive and cannot show a
// collection. A proto that fails the checks is not remembered: it throws every time.
const fromProtoMemo = new WeakMap<ProtoValidatorSet, ValidatorSet>();

export class ValidatorSet {
  /** Members in v0.34 order; index i is the signer of a commit's signature i. */
  readonly validators: readonly Validator[];
  readonly totalVotingPower: bigint;
  private readonly proposer: Validator | undefined;
  private indexByAddress: Map<string, number> | undefined;
  private cachedHash: Uint8Array | undefined;

  private constructor(
    validators: readonly Validator[],
    totalVotingPower: bigint,
    proposer: Validator | undefined,
  ) {
    this.validators = Object.freeze(validators.map(copyValidator));
    this.totalVotingPower = totalVotingPower;
    this.proposer = proposer === undefined ? undefined : copyValidator(proposer);
  }

  static empty(): ValidatorSet {
    return new ValidatorSet([], 0n, undefined);
  }

  /**
   * Go's NewValidatorSet: the list applied as changes to an empty set (power 0 is refused), then
   * one proposer-priority increment when the set is not empty.
   */
  static create(validators: readonly ValidatorChange[]): ValidatorSet {
    if (validators.length === 0) return ValidatorSet.empty();
    const members = applyChangeSet([], 0n, validators, false);
    return ValidatorSet.trusted(members, undefined).incrementProposerPriority(1);
  }

  /**
   * A set with exactly these members, order and priorities (stored or received data). Checks
   * what v0.34's ValidateBasic checks plus unique addresses and the total power bound; the order
   * is kept as given, as Go keeps it.
   */
  static fromValidators(validators: readonly Validator[], proposer?: Validator): ValidatorSet {
    const seen = new Set<string>();
    let total = 0n;
    for (const [i, v] of validators.entries()) {
      if (v.votingPower < 0n) {
        throw new ValidatorSetError(
          "VALSET_NEGATIVE_POWER",
          `validator ${i} (${upperHex(v.address)}) has negative voting power ${v.votingPower}`,
          i,
        );
      }
      const key = addressKey(v.address);
      if (seen.has(key)) {
        throw new ValidatorSetError(
          "VALSET_DUPLICATE_ADDRESS",
          `validator ${i} repeats address ${upperHex(v.address)}`,
          i,
        );
      }
      seen.add(key);
      total = addClip(total, v.votingPower);
      if (total > MAX_TOTAL_VOTING_POWER) {
        throw new ValidatorSetError(
          "VALSET_TOTAL_POWER_TOO_HIGH",
          `total voting power exceeds the maximum ${MAX_TOTAL_VOTING_POWER} at validator ${i}`,
          i,
        );
      }
    }
    return new ValidatorSet(validators, total, proposer);
  }

  /**
   * From tendermint.types.ValidatorSet. The total in the message is ignored and recomputed (Go
   * does the same: peers could lie about it); members must have 20-byte addresses and a key.
   */
  static fromProto(proto: ProtoValidatorSet): ValidatorSet {
    const known = fromProtoMemo.get(proto);
    if (known !== undefined) return known;
    const set = ValidatorSet.checkedFromProto(proto);
    fromProtoMemo.set(proto, set);
    return set;
  }

  private static checkedFromProto(proto: ProtoValidatorSet): ValidatorSet {
    const check = (v: Validator, where: string, index?: number) => {
      if (v.address.length !== ADDRESS_SIZE) {
        throw new ValidatorSetError(
          "VALSET_INVALID_VALIDATOR",
          `${where}: address must be ${ADDRESS_SIZE} bytes, got ${v.address.length}`,
          index,
        );
      }
      if (v.pubKey?.sum === undefined) {
        throw new ValidatorSetError(
          "VALSET_INVALID_VALIDATOR",
          `${where}: validator has no public key`,
          index,
        );
      }
    };
    for (const [i, v] of proto.validators.entries()) check(v, `validator ${i} (${upperHex(v.address)})`, i);
    if (proto.proposer !== undefined) check(proto.proposer, "proposer");
    return ValidatorSet.fromValidators(proto.validators, proto.proposer);
  }

  /**
   * tendermint.types.ValidatorSet as v0.34's ToProto writes it: total_voting_power left 0 (Go
   * never stores it, so stored state bytes match), the proposer filled in.
   */
  toProto(): ProtoValidatorSet {
    if (this.validators.length === 0) return { validators: [], proposer: undefined, totalVotingPower: 0n };
    return {
      validators: this.validators.map((v) => ({ ...v })),
      proposer: { ...(this.getProposer() as Validator) },
      totalVotingPower: 0n,
    };
  }

  private static trusted(validators: readonly Validator[], proposer: Validator | undefined): ValidatorSet {
    let total = 0n;
    for (const v of validators) total += v.votingPower;
    return new ValidatorSet(validators, total, proposer);
  }

  get size(): number {
    return this.validators.length;
  }

  isEmpty(): boolean {
    return this.validators.length === 0;
  }

  /**
   * The proposer: the one chosen by the last increment, else the member with the highest
   * priority (ties to the smaller address). undefined only for an empty set.
   */
  getProposer(): Validator | undefined {
    if (this.validators.length === 0) return undefined;
    if (this.proposer !== undefined) {
      // Report the member's current values when the proposer is still a member.
      const found = this.getByAddress(this.proposer.address);
      return found ? found.validator : this.proposer;
    }
    return this.validators[findProposerIndex(this.validators)];
  }

  getByIndex(index: number): Validator | undefined {
    return Number.isInteger(index) ? this.validators[index] : undefined;
  }

  getByAddress(address: Uint8Array): { index: number; validator: Validator } | undefined {
    if (this.indexByAddress === undefined) {
      this.indexByAddress = new Map(this.validators.map((v, i) => [addressKey(v.address), i]));
    }
    const index = this.indexByAddress.get(addressKey(address));
    return index === undefined ? undefined : { index, validator: this.validators[index] as Validator };
  }

  hasAddress(address: Uint8Array): boolean {
    return this.getByAddress(address) !== undefined;
  }

  /**
   * Go's IncrementProposerPriority(times) on a copy: rescale into the 2 × total window, centre on
   * the average, then `times` rounds of selection. The last one chosen is the new proposer.
   */
  incrementProposerPriority(times: number): ValidatorSet {
    if (this.validators.length === 0) {
      throw new ValidatorSetError(
        "VALSET_INVALID_ARGUMENT",
        "cannot increment the proposer priority of an empty set",
      );
    }
    if (!Number.isSafeInteger(times) || times <= 0) {
      throw new ValidatorSetError(
        "VALSET_INVALID_ARGUMENT",
        `proposer priority increments must be a positive integer, got ${times}`,
      );
    }
    const priorities = this.validators.map((v) => v.proposerPriority);
    const chosen = incrementProposerPriorities(
      priorities,
      this.validators.map((v) => v.votingPower),
      this.validators.map((v) => v.address),
      this.totalVotingPower,
      times,
    );
    const members = this.validators.map((v, i) => ({ ...v, proposerPriority: priorities[i] as bigint }));
    return new ValidatorSet(members, this.totalVotingPower, members[chosen]);
  }

  /** Same as incrementProposerPriority (every operation copies); Go's name for the copying form. */
  copyIncrementProposerPriority(times: number): ValidatorSet {
    return this.incrementProposerPriority(times);
  }

  /**
   * Go's UpdateWithChangeSet on a copy: power 0 removes, new members start at −1.125 × total,
   * existing members keep their priority; then rescale, centre and re-sort. Throws
   * ValidatorSetError (with the change's index) for a change set v0.34 rejects.
   */
  updateWithChangeSet(changes: readonly ValidatorChange[]): ValidatorSet {
    if (changes.length === 0) return this;
    const members = applyChangeSet(this.validators, this.totalVotingPower, changes, true);
    // The proposer stays if still a member (with its new values); otherwise it is recomputed.
    const kept =
      this.proposer && members.find((v) => compareAddresses(v.address, this.proposer!.address) === 0);
    return ValidatorSet.trusted(members, kept || undefined);
  }

  /** ValidatorsHash: merkle root over SimpleValidator {pub_key, voting_power} in set order. */
  hash(): Uint8Array {
    this.cachedHash ??= validatorSetHash(this.validators);
    return this.cachedHash;
  }
}
