// The consensus log (DESIGN.md §2): every consensus input framed with a CRC-32C and appended
// before it is folded, end-of-height markers, fsync before our own votes leave and at height
// ends, torn-tail repair and a typed stop on corruption. The record codec is independent of what
// the inputs are.

export { crc32c, crc32cUpdate } from "./crc32c.js";
export { WalError, type WalErrorCode } from "./errors.js";
export { type FrameFault, FrameType } from "./frame.js";
export { DEFAULT_MAX_RECORD_BYTES, type ReadWalOptions, readWal, type WalEntry } from "./log-reader.js";
export type { RepairReport } from "./log-scan.js";
export { decodeRecord, encodeRecord } from "./record-codec.js";
export { Wal, type WalOptions } from "./wal.js";
