// A run's fingerprint: sha256 over every validator's log, each record encoded exactly as the kept
// log writes it (the node's log frames, failure-log.ts), validators in order. Two runs with the
// same fingerprint folded the same inputs, stamped at the same virtual times, in the same order,
// on every validator, so a campaign line can be compared with a rerun byte for byte, not only by
// its decisions or virtual time. (Seeds 10573 and 11434 of a campaign were blamed on a dependence
// on more than the seed; the campaign had run other code than the commit it was rerun at, which a
// fingerprint beside each run, and the code version beside the campaign, show at once.)
import { createHash, type Hash } from "node:crypto";
import { encodeEndHeightPayload, encodeFrame, FrameType } from "../../src/wal/frame.js";
import { DEFAULT_MAX_RECORD_BYTES } from "../../src/wal/log-reader.js";
import { encodeRecord } from "../../src/wal/record-codec.js";
import type { LogRecord } from "./sim-node.js";

/** One log record as the node's log (and a kept failed run) holds it. */
export function logFrame(record: LogRecord): Uint8Array {
  return "input" in record
    ? encodeFrame(FrameType.Input, encodeRecord(record.input), DEFAULT_MAX_RECORD_BYTES)
    : encodeFrame(FrameType.EndHeight, encodeEndHeightPayload(record.endHeight), DEFAULT_MAX_RECORD_BYTES);
}

/** A validator's whole log in the node's log format. */
export function logBytes(log: readonly LogRecord[]): Buffer {
  return Buffer.concat(log.map(logFrame));
}

function addLog(hash: Hash, log: readonly LogRecord[]): void {
  // The length first, so records cannot slide from one validator's log into the next's.
  const count = Buffer.alloc(4);
  count.writeUInt32BE(log.length);
  hash.update(count);
  for (const record of log) hash.update(logFrame(record));
}

/** Hex sha256 over the validators' logs, in validator order. */
export function runFingerprint(logs: readonly (readonly LogRecord[])[]): string {
  const hash = createHash("sha256");
  for (const log of logs) addLog(hash, log);
  return hash.digest("hex");
}

/** The fingerprint's first 16 hex digits: enough to tell runs apart on a campaign's line. */
export const shortFingerprint = (fingerprint: string): string => fingerprint.slice(0, 16);
