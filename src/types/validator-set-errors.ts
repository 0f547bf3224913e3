// Errors of building and updating validator sets. Changes come from the application (EndBlock,
// InitChain) or from stored/peer data, so every message names the change or validator at fault.
import { CodedError } from "../coded-error.js";

export type ValidatorSetErrorCode =
  /** two changes (or two validators) share an address. */
  | "VALSET_DUPLICATE_ADDRESS"
  /** a voting power below zero. */
  | "VALSET_NEGATIVE_POWER"
  /** one validator's power above MaxTotalVotingPower. */
  | "VALSET_POWER_TOO_HIGH"
  /** a power-0 change for an address that is not in the set. */
  | "VALSET_UNKNOWN_REMOVAL"
  /** a power-0 change where removals are not allowed (a new set, genesis). */
  | "VALSET_REMOVAL_NOT_ALLOWED"
  /** the changes would leave the set empty. */
  | "VALSET_EMPTY"
  /** the resulting total voting power would exceed MaxTotalVotingPower. */
  | "VALSET_TOTAL_POWER_TOO_HIGH"
  /** a validator without a usable public key, or with a malformed address. */
  | "VALSET_INVALID_VALIDATOR"
  /** a call that breaks the API's contract (non-positive times, an empty set). */
  | "VALSET_INVALID_ARGUMENT";

export class ValidatorSetError extends CodedError<ValidatorSetErrorCode> {
  /** Position of the offending change or validator in the caller's list, when one is at fault. */
  readonly index: number | undefined;

  constructor(code: ValidatorSetErrorCode, message: string, index?: number) {
    super(code, message);
    this.index = index;
  }
}
