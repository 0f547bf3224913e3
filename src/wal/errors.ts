// Errors of the consensus log. Every error caused by what is on disk names the file and offset.
import { CodedError } from "../coded-error.js";

export type WalErrorCode =
  /** A bad record with good records after it, or a bad record in a segment that is not the last. */
  | "WAL_CORRUPT"
  /** A record larger than the configured bound was appended. */
  | "WAL_RECORD_TOO_LARGE"
  /** A value the record codec cannot represent (class instance, ill-formed string, too deep). */
  | "WAL_UNENCODABLE"
  /** Bytes that are not a valid record payload. */
  | "WAL_UNDECODABLE"
  /** A segment header of a format version this version does not read (or not a header of ours). */
  | "WAL_UNSUPPORTED_FORMAT"
  /** A decoded record whose shape the reader's declared schema refuses (file, offset, reason). */
  | "WAL_BAD_RECORD"
  /** An end-of-height marker not above the previous one: a broken invariant of the caller. */
  | "WAL_HEIGHT_NOT_INCREASING"
  /** A write, fsync or rename failed; the log refuses further writes since the disk state is unknown. */
  | "WAL_IO"
  /** The log was used after close() or after an I/O failure. */
  | "WAL_CLOSED"
  /** Options out of range. */
  | "WAL_BAD_OPTIONS";

export class WalError extends CodedError<WalErrorCode> {
  constructor(
    code: WalErrorCode,
    message: string,
    readonly details: { file?: string; offset?: number; cause?: unknown } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}
