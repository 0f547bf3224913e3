// Errors of the types module: values that break a rule of the data model. Every error caused by
// outside input names the field (a path such as `vote.blockId.hash`) and what was expected.
import { CodedError } from "../coded-error.js";

export type TypesErrorCode =
  | "TYPES_INVALID_TIME"
  | "TYPES_INVALID_FIELD"
  | "TYPES_HASH_MISMATCH"
  | "TYPES_PART_INDEX_OUT_OF_RANGE"
  | "TYPES_PART_DUPLICATE"
  | "TYPES_PART_INVALID_PROOF"
  | "TYPES_PART_SET_TOO_LARGE"
  | "TYPES_PART_SET_INCOMPLETE"
  | "TYPES_BLOCK_TOO_LARGE"
  | "TYPES_INVALID_PARAMS";

export class TypesError extends CodedError<TypesErrorCode> {
  /** The offending field's path, when one field is at fault. */
  readonly field: string | undefined;

  constructor(code: TypesErrorCode, message: string, field?: string) {
    super(code, message);
    this.field = field;
  }
}
