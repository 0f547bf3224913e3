// The log's format version, read from each segment's header record (frame.ts FrameType.Header).
// A header of a version this code does not read, or a header record that is not ours, stops the
// reader with the file, the offset and the versions it reads: appending to or folding a log of
// another format would misread it.
import { WalError } from "./errors.js";
import { decodeHeaderPayload, LOG_FORMAT_VERSION, READABLE_LOG_FORMATS } from "./frame.js";

export function checkSegmentHeader(payload: Uint8Array, file: string, offset: number): number {
  const version = decodeHeaderPayload(payload);
  if (version === undefined) {
    throw new WalError(
      "WAL_UNSUPPORTED_FORMAT",
      `consensus log ${file} offset ${offset}: a header record that is not an rxbft log header`,
      { file, offset },
    );
  }
  if (!READABLE_LOG_FORMATS.includes(version)) {
    throw new WalError(
      "WAL_UNSUPPORTED_FORMAT",
      `consensus log ${file} offset ${offset}: format version ${version}, but this rxbft reads ` +
        `versions ${READABLE_LOG_FORMATS.join(" and ")} (writes ${LOG_FORMAT_VERSION}); run the rxbft that ` +
        "wrote it to finish the height, or move the log aside (the signer state still guards double signing)",
      { file, offset },
    );
  }
  return version;
}
