// Errors of the storage layer. Every code names one way storage can fail; messages say what
// and where (which store, which height or key), so an operator can act on them.
import { CodedError } from "../coded-error.js";

export type StoreErrorCode =
  /** A database could not be opened (missing directory, lock held by another process). */
  | "STORE_OPEN_FAILED"
  /** Bytes on disk that do not decode, or records that contradict each other. */
  | "STORE_CORRUPT"
  /** The caller asked to save something that breaks the store's invariants (gap, wrong height). */
  | "STORE_INVALID_SAVE"
  /** The stores disagree in a way start-up cannot repair (e.g. state ahead of blocks). */
  | "STORE_INCONSISTENT"
  /** A height was asked for that is outside [base, height]. */
  | "STORE_HEIGHT_UNAVAILABLE"
  /** A validator set is stored at an earlier height and no proposer-priority function was given. */
  | "STORE_NEEDS_PRIORITY_FUNCTION"
  /** tx / tx_search with tx_index.indexer = "null". */
  | "TX_INDEXING_DISABLED"
  /** block_search with tx_index.indexer = "null". */
  | "BLOCK_INDEXING_DISABLED"
  /** A query the indexer cannot answer within its scan budget: an error, never a partial answer. */
  | "INDEX_QUERY_TOO_BROAD"
  /** A query the indexer cannot evaluate (unknown operator or operand type). */
  | "INDEX_QUERY_INVALID"
  /** page beyond the last page of a search result. */
  | "INDEX_PAGE_OUT_OF_RANGE"
  /** The psql indexer's PostgreSQL cannot be reached: searches fail until it is back. */
  | "INDEX_UNAVAILABLE";

export class StoreError extends CodedError<StoreErrorCode> {
  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
