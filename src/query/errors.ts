// Errors of the event query language. Syntax errors name the position (0-based, in UTF-16
// code units of the text) and what the grammar expected there.
import { CodedError } from "../coded-error.js";

export type QueryErrorCode =
  /** the text does not follow the grammar of reference §3.1 */
  | "QUERY_SYNTAX"
  /** the text is longer than the allowed maximum (512 bytes for subscribe and tx_search) */
  | "QUERY_TOO_LONG"
  /** a DATE or TIME operand follows the grammar but is not a real calendar instant */
  | "QUERY_INVALID_OPERAND"
  /** an event value could not be read as the operand's type while matching (reference §3.2) */
  | "QUERY_VALUE_UNCONVERTIBLE"
  /** an AST handed to the printer cannot be written in the language */
  | "QUERY_UNPRINTABLE";

export class QueryError extends CodedError<QueryErrorCode> {
  /** Offset in the query text where the problem is, when there is one. */
  readonly position: number | undefined;
  /** What the grammar expected at `position`, when the error is a syntax error. */
  readonly expected: string | undefined;

  constructor(
    code: QueryErrorCode,
    message: string,
    details: { position?: number; expected?: string; cause?: unknown } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.position = details.position;
    this.expected = details.expected;
  }
}
