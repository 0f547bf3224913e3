// Errors of verifying a commit against a validator set. Commits come from peers (blocks, block
// sync, light blocks), so every error says what is wrong, with the signature index at fault or
// the power figures.
import { CodedError } from "../coded-error.js";

export type CommitVerificationErrorCode =
  /** the commit has a different number of signatures than the set has members. */
  | "COMMIT_WRONG_SET_SIZE"
  /** the commit is for another height. */
  | "COMMIT_WRONG_HEIGHT"
  /** the commit is for another block. */
  | "COMMIT_WRONG_BLOCK_ID"
  /** a signature does not verify against its validator's key. */
  | "COMMIT_INVALID_SIGNATURE"
  /** a signature carries a BlockIDFlag other than ABSENT, COMMIT or NIL. */
  | "COMMIT_INVALID_FLAG"
  /** a validator's key type cannot be verified by this node. */
  | "COMMIT_UNSUPPORTED_KEY_TYPE"
  /** one validator signed twice in the same commit (found by address, trusting form). */
  | "COMMIT_DOUBLE_VOTE"
  /** a trust level that is not a usable fraction. */
  | "COMMIT_INVALID_TRUST_LEVEL"
  /** the valid signatures for the block hold no more than the needed power. */
  | "COMMIT_INSUFFICIENT_POWER";

export class CommitVerificationError extends CodedError<CommitVerificationErrorCode> {
  /** Index of the offending signature, for the per-signature codes. */
  readonly index: number | undefined;
  /** Power signed for the block (COMMIT_INSUFFICIENT_POWER). */
  readonly got: bigint | undefined;
  /** Power that had to be exceeded: total × 2 / 3, or × trust level (COMMIT_INSUFFICIENT_POWER). */
  readonly needed: bigint | undefined;

  constructor(
    code: CommitVerificationErrorCode,
    message: string,
    details: { index?: number; got?: bigint; needed?: bigint } = {},
  ) {
    super(code, message);
    this.index = details.index;
    this.got = details.got;
    this.needed = details.needed;
  }
}
